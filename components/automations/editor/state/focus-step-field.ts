const FIELD =
  "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled), [contenteditable=true]";
const ANY_FOCUSABLE = `${FIELD}, button:not(:disabled)`;
/** The step form loads late (with the registry, then its own code): wait this long at most. */
const GIVE_UP_MS = 5000;

/** The look in progress, if any: a newer step's look replaces it. */
let frame: number | null = null;

/**
 * After a step is added by keyboard, focus moves into its first field, so typing goes on with no
 * Tab (43 of them before). The form shows up a few frames later (it loads with the registry), so
 * this looks each frame until it is there; a step with no field gets its panel's first control.
 * Loaded when a step is first added from the add-step search, not with the first paint.
 */
export function focusStepField(stepId: string): void {
  if (frame !== null) cancelAnimationFrame(frame);
  const started = performance.now();
  const look = () => {
    const form = document.querySelector<HTMLFormElement>(`form[data-step-form="${CSS.escape(stepId)}"]`);
    const field = form?.querySelector<HTMLElement>(FIELD);
    const panel = document.querySelector<HTMLElement>('[role="tabpanel"][aria-label="Step"]');
    const waited = performance.now() - started;
    const target = field ?? (form && waited > 300 ? panel?.querySelector<HTMLElement>(ANY_FOCUSABLE) : null);
    if (target) {
      target.focus();
      frame = null;
      return;
    }
    frame = waited < GIVE_UP_MS ? requestAnimationFrame(look) : null;
  };
  frame = requestAnimationFrame(look);
}
