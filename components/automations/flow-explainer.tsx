import { cn } from "@/components/ui/cn";

const STEPS = [
  {
    kind: "Trigger",
    example: "Order is fulfilled",
    text: "Something happens in your shop, or a schedule fires.",
    tone: "border-emerald-300 bg-emerald-50 text-emerald-900",
  },
  {
    kind: "Condition",
    example: "Total is over 100",
    text: "Decides which path the flow takes: true or false.",
    tone: "border-sky-300 bg-sky-50 text-sky-900",
  },
  {
    kind: "Wait",
    example: "Wait 3 days",
    text: "Pauses for minutes, days, a person's approval or something to happen, then carries on.",
    tone: "border-amber-300 bg-amber-50 text-amber-900",
  },
  {
    kind: "Action",
    example: "Email a review request",
    text: "Does the work: tags, notes, emails, webhooks, tasks.",
    tone: "border-indigo-300 bg-indigo-50 text-indigo-900",
  },
] as const;

/** A worked example of the parts of an automation, read left to right (top to bottom on phones). */
export function FlowExplainer() {
  return (
    <ol aria-label="The parts of an automation, in order" className="grid gap-3 text-left sm:grid-cols-4">
      {STEPS.map((step, i) => (
        <li key={step.kind} className="relative">
          <div className={cn("h-full rounded-lg border px-3 py-3", step.tone)}>
            <p className="text-xs font-semibold tracking-wide uppercase">
              <span className="sr-only">Step {i + 1}: </span>
              {step.kind}
            </p>
            <p className="mt-1 text-sm font-medium">{step.example}</p>
            <p className="mt-1 text-xs leading-5 opacity-80">{step.text}</p>
          </div>
          {i < STEPS.length - 1 && (
            <span
              aria-hidden="true"
              className="absolute top-1/2 -right-2.5 z-10 hidden -translate-y-1/2 text-zinc-400 sm:block"
            >
              →
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
