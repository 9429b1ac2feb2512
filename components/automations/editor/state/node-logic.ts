/**
 * Everything the editor works out from the node registry — ready issues, the steps' sentences,
 * defaults, the diff against the active version, the tokens a step may use — loaded with the
 * first interaction (`state/node-logic-loader.ts`) rather than the first paint, since it brings zod, every
 * node definition and croner along. Until then the page's `EditorFirstPaint` stands in.
 */
export { diffGraphs } from "@/lib/automations/review/diff";
export { validate } from "@/lib/automations/review/validate";
export { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";
export { audienceSchema } from "@/lib/automations/nodes/triggers/triggers";
export { stepsBefore } from "@/lib/automations/review/tokens-for";
