/**
 * The words of "does it pay" (browser-safe): the goals and how a merchant reads them.
 */
export const GOALS = ["order_paid", "order_created"] as const;

export const GOAL_LABELS: Record<(typeof GOALS)[number], string> = {
  order_paid: "An order is paid",
  order_created: "An order is created",
};

/** The holdout shares the automation page offers (any whole number 0–50 is accepted). */
export const HOLDOUT_CHOICES = [0, 5, 10, 20, 50] as const;
