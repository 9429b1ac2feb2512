import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";

/**
 * Starting points for a new automation: a blank flow and a few real flows a merchant can publish
 * as they are (every one but Blank passes `validate()` with no issues; templates.test.ts proves
 * it). Browser-safe data: the gallery renders it and the create action copies `graph` into a draft.
 * Nodes are laid out top to bottom, one row per step, so the editor opens them readably.
 */

export interface AutomationTemplate {
  /** Stable id used by the gallery form; never rename one. */
  id: string;
  name: string;
  /** One or two sentences saying what the flow does and why a merchant wants it. */
  description: string;
  /** The steps in reading order, for the card ("Order fulfilled → Wait 2 days → Send email"). */
  outline: string[];
  graph: Graph;
}

/** Vertical distance between rows of the layout, in canvas pixels. */
const ROW = 140;

interface Step {
  id: string;
  type: string;
  params?: Record<string, unknown>;
  /** The handle of the previous step this one hangs from; "out" unless the previous is a condition. */
  from?: string;
}

/**
 * A straight line of steps, each connected to the one before it, laid out in one column.
 * A condition's follower names its branch with `from: "true"` (or "false").
 */
function chain(steps: Step[]): Graph {
  const nodes: GraphNode[] = steps.map((step, i) => ({
    id: step.id,
    type: step.type,
    params: step.params ?? {},
    position: { x: 0, y: i * ROW },
  }));
  const edges: GraphEdge[] = steps.slice(1).map((step, i) => {
    const source = steps[i]!.id;
    const sourceHandle = step.from ?? "out";
    return { id: `e_${source}_${sourceHandle}_${step.id}`, source, sourceHandle, target: step.id };
  });
  return { nodes, edges };
}

/** Horizontal distance between steps side by side in one row, in canvas pixels. */
const COLUMN = 320;

/**
 * A line of steps whose last step splits: each of `branches` hangs from that step's `from` exit
 * (an approval's "approved", "rejected"…), side by side in the row below, centred under it.
 */
function split(trunk: Step[], branches: Step[]): Graph {
  const graph = chain(trunk);
  const last = trunk.at(-1)!;
  const y = trunk.length * ROW;
  branches.forEach((step, i) => {
    const sourceHandle = step.from ?? "out";
    graph.nodes.push({
      id: step.id,
      type: step.type,
      params: step.params ?? {},
      position: { x: (i - (branches.length - 1) / 2) * COLUMN, y },
    });
    graph.edges.push({
      id: `e_${last.id}_${sourceHandle}_${step.id}`,
      source: last.id,
      sourceHandle,
      target: step.id,
    });
  });
  return graph;
}

export const BLANK_TEMPLATE_ID = "blank";

export const AUTOMATION_TEMPLATES: readonly AutomationTemplate[] = [
  {
    id: BLANK_TEMPLATE_ID,
    name: "Blank automation",
    description: "Start from an empty canvas and add a trigger, conditions, waits and actions yourself.",
    outline: [],
    graph: { nodes: [], edges: [] },
  },
  {
    id: "review-after-delivery",
    name: "Ask for a review 2 days after delivery",
    description:
      "When an order is fulfilled, wait two days so the parcel has arrived, then email the customer asking for a review.",
    outline: ["Order fulfilled", "Wait 2 days", "Send email"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.order_fulfilled" },
      { id: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
      {
        id: "email",
        type: "auto.action.send_email",
        params: {
          to: "{entity.email}",
          subject: "How was your order {entity.number}?",
          purpose: "marketing",
          body: "Thanks for shopping with us. We would love to hear what you think of your order {entity.number}: reply to this email with a quick review.",
        },
      },
    ]),
  },
  {
    id: "win-back-60-days",
    name: "Win back a customer after 60 days",
    description:
      "Sixty days after a customer signs up, if they have ordered at most once, send a friendly note inviting them back.",
    outline: ["Customer created", "Wait 30 days", "Wait 30 days", "Orders count is at most 1", "Send email"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.customer_created" },
      // A single wait can be at most 30 days, so 60 days is two waits in a row.
      { id: "wait_1", type: "auto.control.wait", params: { duration: 30, unit: "days" } },
      { id: "wait_2", type: "auto.control.wait", params: { duration: 30, unit: "days" } },
      {
        id: "few_orders",
        type: "auto.condition.field",
        params: { path: "ordersCount", operator: "lte", value: 1 },
      },
      {
        id: "email",
        from: "true",
        type: "auto.action.send_email",
        params: {
          to: "{entity.email}",
          subject: "We miss you, {entity.name}",
          purpose: "marketing",
          body: "It has been a while since we saw you. Come back and see what is new in the shop.",
        },
      },
    ]),
  },
  {
    id: "abandoned-cart",
    name: "Abandoned cart reminder",
    description:
      "When a cart is abandoned, wait an hour, and if it is still abandoned then, remind the shopper what they left behind.",
    outline: ["Cart abandoned", "Wait 1 hour", "Status is abandoned", "Send email"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.cart_abandoned" },
      { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
      {
        id: "still_abandoned",
        type: "auto.condition.field",
        params: { path: "status", operator: "eq", value: "abandoned" },
      },
      {
        id: "email",
        from: "true",
        type: "auto.action.send_email",
        params: {
          to: "{entity.email}",
          subject: "You left something in your cart",
          purpose: "marketing",
          body: "Your cart is saved and waiting for you. Come back any time to finish your order.",
        },
      },
    ]),
  },
  {
    id: "escalate-unfulfilled",
    name: "Escalate an order still unfulfilled after 24 hours",
    description:
      "When an order is paid, wait a day; if it is still only paid (not fulfilled), create a task for the team, due in two hours.",
    outline: ["Order paid", "Wait 24 hours", "Status is paid", "Create task"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.order_paid" },
      { id: "wait", type: "auto.control.wait", params: { duration: 24, unit: "hours" } },
      {
        id: "still_paid",
        type: "auto.condition.field",
        params: { path: "status", operator: "eq", value: "paid" },
      },
      {
        id: "task",
        from: "true",
        type: "auto.action.create_task",
        params: { title: "Order {entity.number} is still unfulfilled", dueIn: "2h" },
      },
    ]),
  },
  {
    id: "tag-vip",
    name: "Tag VIP customers",
    description:
      "When a customer record is created with at least 1,000 spent (say, imported from another shop), tag them vip so the team can spot them.",
    outline: ["Customer created", "Total spent is at least 1000", "Add tag vip"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.customer_created" },
      {
        id: "big_spender",
        type: "auto.condition.field",
        params: { path: "totalSpent", operator: "gte", value: 1000 },
      },
      { id: "tag", from: "true", type: "auto.action.add_tag", params: { tag: "vip" } },
    ]),
  },
  {
    id: "hold-big-orders-for-review",
    name: "Hold orders over €1,000 for review",
    description:
      "When an order over 1,000 is paid, hold it until an editor approves or rejects it (they are emailed, and decide in the Approvals inbox). Approved orders are tagged reviewed; rejected ones get a note. After 3 days without a decision the flow ends.",
    outline: [
      "Order paid",
      "Total is over 1000",
      "Approval: Review order",
      "Approved: add tag reviewed",
      "Rejected: add note",
    ],
    graph: split(
      [
        { id: "trigger", type: "auto.trigger.order_paid" },
        {
          id: "big_order",
          type: "auto.condition.field",
          params: { path: "total", operator: "gt", value: 1000 },
        },
        {
          id: "review",
          from: "true",
          type: "auto.control.approval",
          params: { title: "Review order {entity.number}", timeoutHours: 72, approverRole: "editor" },
        },
      ],
      [
        { id: "tag", from: "approved", type: "auto.action.add_tag", params: { tag: "reviewed" } },
        {
          id: "note",
          from: "rejected",
          type: "auto.action.add_note",
          params: { body: "Rejected in review" },
        },
      ],
    ),
  },
  {
    id: "sort-refunds-by-reason",
    name: "Sort refund requests by reason",
    description:
      "When a refund is requested, the shop's AI model reads its reason and sorts it into damaged, wrong item, late, changed mind or other; each refund is tagged with its reason, and damaged goods get a note for the warehouse. Needs an AI model set up by your administrator.",
    outline: [
      "Refund created",
      "Ask AI: sort into damaged, wrong item, late, …",
      "Add tag with the reason",
      "Reason is damaged",
      "Add note",
    ],
    graph: chain([
      { id: "trigger", type: "auto.trigger.refund_created" },
      {
        id: "reason",
        type: "auto.action.ai",
        params: {
          task: "classify",
          prompt:
            "A customer asked for a refund of {entity.amount} with this reason:\n\n{entity.reason}\n\nWhy do they want their money back?",
          categories: ["damaged", "wrong item", "late", "changed mind", "other"],
        },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "refund: {steps.reason.category}" } },
      {
        id: "damaged",
        type: "auto.condition.field",
        params: { path: "steps.reason.category", operator: "eq", value: "damaged" },
      },
      {
        id: "note",
        from: "true",
        type: "auto.action.add_note",
        params: { body: "Damaged goods: ask the warehouse to check the returned item." },
      },
    ]),
  },
  {
    id: "remind-unshipped-paid-orders",
    name: "Remind unshipped paid orders after 2 days",
    description:
      "When an order is paid, wait up to two days for it to be fulfilled; if it has not shipped by then, email the customer that it is on its way. An order fulfilled in time gets no email, and the email goes out the moment the two days are up.",
    outline: ["Order paid", "Wait up to 2 days for Order fulfilled", "Send email"],
    graph: chain([
      { id: "trigger", type: "auto.trigger.order_paid" },
      {
        id: "fulfilled",
        type: "auto.control.wait_for_event",
        params: { event: "order.fulfilled", match: { kind: "same_record" }, timeoutHours: 48 },
      },
      {
        id: "email",
        from: "timed_out",
        type: "auto.action.send_email",
        params: {
          to: "{entity.email}",
          subject: "Your order {entity.number} is on its way soon",
          purpose: "transactional",
          body: "Thanks for your order {entity.number}. It is taking us a little longer than usual to send it: we will email you as soon as it ships.",
        },
      },
    ]),
  },
];

export function findTemplate(id: string): AutomationTemplate | undefined {
  return AUTOMATION_TEMPLATES.find((template) => template.id === id);
}
