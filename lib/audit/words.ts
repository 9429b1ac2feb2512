/**
 * The audit log's vocabulary (browser-safe): every action recorded, grouped into kinds for the
 * Activity page's filter, and one plain-English sentence per entry.
 */

export const AUDIT_KINDS = {
  automations: {
    label: "Automations",
    actions: [
      "automation.published",
      "automation.activated",
      "automation.paused",
      "automation.archived",
      "automation.restored",
      "automation.reverted",
      "automation.reset_to_builtin",
      "automation.run_now",
      "automation.later_tried",
      "automation.run_on_record",
      "automation.caps_set",
      "automation.messaging_set",
      "automation.holdout_set",
      "automation.paused_on_storm",
    ],
  },
  runs: {
    label: "Runs",
    actions: ["run.rerun", "runs.rerun", "run.released", "run.discarded", "runs.released", "runs.discarded"],
  },
  waits: { label: "Waiting runs", actions: ["wait.cancelled", "wait.resumed_now", "waits.cancelled_all"] },
  approvals: { label: "Approvals", actions: ["approval.decided", "approval.reminded", "approval.escalated"] },
  users: {
    label: "Users",
    // user.added: before invitations (issue 47), an admin added members directly; old entries keep it.
    actions: [
      "user.invited",
      "user.invitation_resent",
      "user.invitation_revoked",
      "user.joined",
      "user.added",
      "user.removed",
      "user.role_changed",
    ],
  },
  api_keys: { label: "API keys", actions: ["api_key.created", "api_key.revoked"] },
  credentials: {
    label: "Credentials",
    actions: ["credential.created", "credential.rotated", "credential.deleted", "credentials.moved"],
  },
  connections: {
    label: "Store connections",
    actions: ["connection.created", "connection.deleted", "connection.webhooks_repaired"],
  },
  alerts: { label: "Alerts", actions: ["alert.created", "alert.updated", "alert.deleted"] },
  teams: { label: "Teams", actions: ["team.created", "team.updated", "team.deleted"] },
  shop: {
    label: "Shop settings",
    actions: [
      "shop.updated",
      "shop.signing_secret_shown",
      "shop.signing_secret_rotated",
      "shop.messaging_set",
      "shop.attribution_set",
    ],
  },
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;
export type AuditAction = (typeof AUDIT_KINDS)[AuditKind]["actions"][number];

export const AUDIT_ACTIONS: readonly AuditAction[] = Object.values(AUDIT_KINDS).flatMap((k) => k.actions);

/** What a sentence needs: the entry, and the name of the automation it is about where known. */
export interface AuditEntry {
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  detail: Record<string, unknown>;
}

/** "; added ana@…, bo@…" for a non-empty list of emails, else "". */
const people = (value: unknown, lead: string): string =>
  Array.isArray(value) && value.length > 0 ? `${lead}${value.map(String).join(", ")}` : "";

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value : typeof value === "number" ? String(value) : null;

const quoted = (value: unknown, fallback: string) => {
  const t = text(value);
  return t ? `'${t}'` : fallback;
};

const WAIT_KIND: Record<string, string> = {
  delay: "wait",
  until: "wait",
  event: "wait for an event",
  approval: "approval",
  later: "later step",
};

/** "editor@demo.test published 'Tag VIPs' version 3 — 'note'". `automationName` names waits' automations. */
export function auditSentence(entry: AuditEntry, automationName?: string | null): string {
  const d = entry.detail;
  const who = entry.actor;
  const name = quoted(d.name ?? automationName, "an automation");
  const of = automationName ? ` of '${automationName}'` : "";
  const note = text(d.note) ? ` — '${text(d.note)}'` : "";
  switch (entry.action) {
    case "automation.published":
      return `${who} published ${name} version ${text(d.version) ?? "?"}${note}`;
    case "automation.activated":
      return `${who} activated ${name}`;
    case "automation.paused":
      return `${who} paused ${name}`;
    case "automation.archived":
      return `${who} archived ${name}`;
    case "automation.restored":
      return `${who} restored ${name} (paused)`;
    case "automation.reverted":
      return `${who} reverted ${name} from version ${text(d.fromVersion) ?? "?"} to version ${text(d.toVersion) ?? "?"} (published as version ${text(d.version) ?? "?"})`;
    case "automation.reset_to_builtin":
      return `${who} reset ${name} to the built-in definition (version ${text(d.version) ?? "?"})`;
    case "automation.run_now":
      return `${who} ran ${name} now`;
    case "automation.run_on_record":
      return `${who} ran ${name} on the ${text(d.domain) ?? "record"} ${quoted(d.entityId, "")}`;
    case "automation.later_tried":
      return `${who} tried the later step ${quoted(d.step, "")} of ${name} now`;
    case "run.rerun":
      return `${who} re-ran a run of ${name} ${d.from === "failed_step" ? "from the step it failed at" : "from the start"}`;
    case "runs.rerun": {
      const n = Number(d.count ?? 0);
      return `${who} re-ran ${n === 1 ? "1 run" : `${n} runs`}${entry.subjectType === "shop" ? "" : of} ${d.from === "failed_step" ? "from the steps they failed at" : "from the start"}`;
    }
    case "automation.messaging_set":
      return `${who} set the message priority of ${name} to ${text(d.priority) ?? "normal"}; deferred messages expire after ${Number(d.expireAfterHours ?? 48)} hours`;
    case "automation.holdout_set":
      return Number(d.percent ?? 0) === 0
        ? `${who} stopped holding customers out of ${name}`
        : `${who} set ${name} to hold out ${text(d.percent) ?? "?"}% of its customers`;
    case "automation.caps_set":
      return `${who} set the caps of ${name}: ${text(d.sentence) ?? "changed"}`;
    case "automation.paused_on_storm":
      return `${who} paused ${name}: it passed its cap of ${text(d.maxRunsPerHour) ?? "?"} runs an hour and pauses on a storm. ${text(d.impact) ?? ""}`.trimEnd();
    case "run.released":
      return `${who} released a held run${of}`;
    case "run.discarded":
      return `${who} discarded a held run${of}`;
    case "runs.released":
    case "runs.discarded": {
      const n = Number(d.count ?? 0);
      const verb = entry.action === "runs.released" ? "released" : "discarded";
      return `${who} ${verb} ${n === 1 ? "1 held run" : `${n} held runs`}${entry.subjectType === "shop" ? "" : of}`;
    }
    case "wait.cancelled":
      return `${who} cancelled a ${WAIT_KIND[String(d.kind)] ?? "wait"}${of}`;
    case "wait.resumed_now":
      return `${who} ran a ${WAIT_KIND[String(d.kind)] ?? "wait"}${of} now instead of waiting`;
    case "waits.cancelled_all": {
      const n = Number(d.cancelled ?? 0);
      const runs = n === 1 ? "1 waiting step" : `${n} waiting steps`;
      return `${who} cancelled all waiting steps${entry.subjectType === "shop" ? " of the shop" : of} (${runs})`;
    }
    case "approval.decided":
      return text(d.reason)
        ? `${who} rejected ${quoted(d.title, "an approval")}: it ${text(d.reason)}`
        : `${who} ${d.decision === "approved" ? "approved" : "rejected"} ${quoted(d.title, "an approval")}${note}`;
    case "approval.reminded":
      return `${who} reminded the approvers${of}: nobody had decided ${quoted(d.title, "an approval")} yet`;
    case "approval.escalated":
      return `${who} told the admins that nobody had decided ${quoted(d.title, "an approval")}${automationName ? ` in '${automationName}'` : ""}`;
    case "alert.created":
    case "alert.updated":
    case "alert.deleted": {
      const verb =
        entry.action === "alert.created" ? "added" : entry.action === "alert.updated" ? "changed" : "deleted";
      const about = d.automationId
        ? automationName
          ? `'${automationName}'`
          : "an automation"
        : "every automation";
      return `${who} ${verb} an alert about ${about}: ${text(d.sentence) ?? "an alert"} (${text(d.channel) ?? "email"})`;
    }
    case "user.invited":
      return `${who} invited ${text(d.email) ?? "someone"} as ${text(d.role) ?? "a member"}`;
    case "user.invitation_resent":
      return `${who} sent the invitation to ${text(d.email) ?? "someone"} again`;
    case "user.invitation_revoked":
      return `${who} revoked the invitation to ${text(d.email) ?? "someone"}`;
    case "user.joined":
      return `${who} accepted an invitation and joined as ${text(d.role) ?? "a member"}`;
    case "user.added":
      return `${who} added ${text(d.email) ?? "a user"} as ${text(d.role) ?? "a member"}`;
    case "user.removed":
      return `${who} removed ${text(d.email) ?? "a user"}`;
    case "user.role_changed":
      return `${who} changed the role of ${text(d.email) ?? "a user"} from ${text(d.from) ?? "?"} to ${text(d.to) ?? "?"}`;
    case "api_key.created":
      return `${who} created the API key ${quoted(d.name, "")} (${text(d.role) ?? "?"})`;
    case "api_key.revoked":
      return `${who} revoked the API key ${quoted(d.name, "")}`;
    case "credential.created":
      return `${who} stored the credential ${quoted(d.name, "")}`;
    case "credential.rotated":
      return `${who} rotated the credential ${quoted(d.name, "")}`;
    case "credential.deleted":
      return `${who} deleted the credential ${quoted(d.name, "")}`;
    case "credentials.moved":
      return `Tillflow moved ${text(d.count) ?? "the"} secrets written into flows into credentials`;
    case "connection.created":
      return `${who} connected the ${text(d.platform) === "woocommerce" ? "WooCommerce" : "Shopify"} store ${quoted(d.name, "")}`;
    case "connection.deleted":
      return `${who} disconnected the ${text(d.platform) === "woocommerce" ? "WooCommerce" : "Shopify"} store ${quoted(d.name, "")}`;
    case "connection.webhooks_repaired":
      return `${who} repaired the Shopify webhooks of ${quoted(d.name, "")} (${text(d.created) ?? "0"} created)`;
    case "team.created":
      return `${who} added the team ${quoted(d.name, "")}${people(d.members, " with ")}`;
    case "team.updated": {
      const added = people(d.added, "; added ");
      const removed = people(d.removed, "; removed ");
      const renamed = text(d.renamedFrom) ? ` (was ${quoted(d.renamedFrom, "")})` : "";
      return `${who} changed the team ${quoted(d.name, "")}${renamed}${added}${removed}`;
    }
    case "team.deleted":
      return `${who} deleted the team ${quoted(d.name, "")}`;
    case "shop.updated":
      return `${who} changed the shop settings`;
    case "shop.messaging_set":
      return `${who} set quiet hours and the shop's cap: ${text(d.sentence) ?? "changed"}`;
    case "shop.attribution_set":
      return `${who} set the automations' goal to ${d.goal === "order_created" ? "an order is created" : "an order is paid"}, within ${text(d.windowDays) ?? "?"} days`;
    case "shop.signing_secret_shown":
      return `${who} viewed the signing secret (ending in ${text(d.lastFour) ?? "?"})`;
    case "shop.signing_secret_rotated":
      return `${who} rotated the signing secret${text(d.before) ? ` (was ending in ${text(d.before)})` : ""}; the new one ends in ${text(d.after) ?? "?"}`;
    default:
      return `${who}: ${entry.action}`;
  }
}
