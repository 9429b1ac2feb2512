/** The example sentences under "Describe your automation" (a click fills the box). Browser-safe. */
export const AI_EXAMPLES = [
  "When an order is paid, wait 2 days, then email the customer asking for a review.",
  "When a cart is abandoned, wait 1 hour; if it is still abandoned, email the shopper a reminder.",
  "When an order over 500 is created, ask an admin to approve it; if it is rejected, tag the order 'fraud-check'.",
] as const;
