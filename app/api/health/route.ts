import { checkHealth } from "@/lib/worker/health";

export const dynamic = "force-dynamic";

/**
 * `{ ok, db, worker, workerDetail }`: 200 when the database answers and a worker has beaten
 * recently, else 503. `?scope=web` answers 200 as soon as the database does, whatever the workers
 * do: a load balancer's or compose's check of *this* web server must not take it out of service
 * because the workers (another deployment) are restarting.
 */
export async function GET(request: Request) {
  const health = await checkHealth();
  const webOnly = new URL(request.url).searchParams.get("scope") === "web";
  return Response.json(health, { status: (webOnly ? health.db : health.ok) ? 200 : 503 });
}
