# Tillflow: one image for every role — web (`server/index.ts`: Next.js and the hot ingest route), worker (`tillflow worker`) and the
# one-shot `tillflow migrate` — so a release is one build run everywhere (see docs/deployment.md).
#
#   docker build -t tillflow .
#   docker run --env-file .env tillflow                                  # web on :3000
#   docker run --env-file .env tillflow node bin/tillflow.mjs worker     # a worker
#   docker run --env-file .env tillflow node bin/tillflow.mjs migrate    # migrations, then exit

# 1. Dependencies, exactly as locked. Installed once and reused by the build and the runtime image.
FROM node:20-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# 2. The production build (`next build`): the same .next/ for every web container of a release, so
# server-action ids and the build id agree across replicas.
FROM node:20-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN node node_modules/next/dist/bin/next build

# 3. Runtime. The worker and the CLI are TypeScript run by tsx (a runtime dependency), so the
# sources come along with the build; node_modules is the full locked tree (next.config.ts and the
# drizzle migrations are read at run time, and a pruned tree is not what the tests ran on).
FROM node:20-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.next ./.next
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json /app/tsconfig.json /app/next.config.ts ./
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/components ./components
COPY --from=build --chown=node:node /app/lib ./lib
COPY --from=build --chown=node:node /app/worker ./worker
COPY --from=build --chown=node:node /app/server ./server
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/drizzle ./drizzle
COPY --from=build --chown=node:node /app/instrumentation.ts ./
# Not root: the `node` user (uid 1000) of the official image owns nothing but /app (.data is
# only written when BETTER_AUTH_SECRET is unset, which a deployment with several servers must not do).
RUN chown node:node /app
USER node
EXPOSE 3000
# Node itself answers the health check: the slim image has no curl or wget.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health?scope=web').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "server/index.ts"]
