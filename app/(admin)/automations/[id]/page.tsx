import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FlowEditor } from "@/components/automations/editor/flow-editor";
import { Providers } from "@/components/providers";
import { Notice } from "@/components/ui/notice";
import { BUILT_LEAD } from "@/lib/automations/ai/notes";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { editorFirstPaint } from "@/lib/automations/editor/first-paint";
import { withPositions } from "@/lib/automations/editor/place";
import { getAutomation, type AutomationView } from "@/lib/automations/lifecycle/read";
import { forRole } from "@/lib/automations/nodes/editor-only";
import { serverFacts } from "@/lib/automations/lifecycle/server-facts";
import { listCredentials } from "@/lib/credentials/store";
import { approverFacts } from "@/lib/automations/engine/votes";
import { waitingByNode } from "@/lib/automations/waits/waits";
import { AppError } from "@/lib/errors";
import { PerformanceOverlayProvider } from "@/components/performance/canvas-overlay";
import { canvasPerformance } from "@/lib/automations/performance/overlay";

type Params = Promise<{ id: string }>;

/** The automation, or null when this shop has none with that id (another shop's ids included). */
async function findAutomation(tenantId: string, id: string): Promise<AutomationView | null> {
  try {
    return await getAutomation(tenantId, id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const caller = await requireCaller();
  const automation = await findAutomation(caller.tenant.id, (await params).id);
  return { title: automation ? automation.name : "Automation not found" };
}

/** The flow editor: a viewer, or anyone opening an archived automation, gets the same canvas read-only. */
export default async function AutomationEditorPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const caller = await requireCaller();
  const found = await findAutomation(caller.tenant.id, (await params).id);
  if (!found) notFound();
  // A viewer's page holds no editor-only params (a webhook trigger's address), as the API's replies.
  const automation = forRole(found, caller.role);
  const waiting = await waitingByNode(automation.id);
  // "Show performance" on the canvas: each step's last 30 days, one statement.
  const performance = await canvasPerformance(caller.tenant.id, automation.id);
  // The shop's teams and how many may vote: an Approval step's rules are checked against them.
  const approvers = await approverFacts(caller.tenant.id);
  // Names, kinds, hosts and last 4 characters only: the editor picks credentials, it never sees a value.
  const credentials = (await listCredentials(caller.tenant.id)).map(
    ({ id, name, kind, last4, allowedHosts }) => ({ id, name, kind, last4, allowedHosts }),
  );
  // Steps without a position are placed here, so the browser never loads dagre to draw them.
  const draftGraph = withPositions(automation.draftGraph);
  // Opened straight after "Describe your automation": what the model was asked and what was assumed.
  const built = (await searchParams).built === "ai" && automation.description.startsWith(BUILT_LEAD);
  // The Field picker asks the server what the shop's records carry (react-query).
  const editor = (
    <Providers>
      <PerformanceOverlayProvider data={performance}>
        <FlowEditor
          automation={{ ...automation, draftGraph }}
          // The catalog, sentences and issues of the first paint, so the registry and zod load later.
          // Worked out on the graph as stored (its sentences and issues name no token), so a viewer's
          // canvas does not call the token it was not sent missing.
          firstPaint={editorFirstPaint(
            { ...found, draftGraph: withPositions(found.draftGraph) },
            {
              ...serverFacts(),
              credentialHosts: Object.fromEntries(
                credentials.map(({ id, name, allowedHosts }) => [id, { name, allowedHosts }]),
              ),
              approvers,
            },
          )}
          canEdit={
            automation.status !== "archived" &&
            hasRole(caller.role, automation.builtinSlug ? "admin" : "editor")
          }
          canArchive={!automation.builtinSlug && hasRole(caller.role, "editor")}
          isAdmin={hasRole(caller.role, "admin")}
          waitingRuns={waiting.reduce((sum, w) => sum + w.count, 0)}
          shopTimezone={caller.tenant.timezone}
          credentials={credentials}
        />
      </PerformanceOverlayProvider>
    </Providers>
  );
  if (!built) return editor;
  return (
    <>
      {/* The editor pulls itself up over the page's padding; this margin keeps the note clear of it. */}
      <Notice tone="info" title="Drafted from your description" className="mb-8 whitespace-pre-line md:mb-10">
        {automation.description}
        {"\n"}Check each step and the Issues tab, then publish when it is right.
      </Notice>
      {editor}
    </>
  );
}
