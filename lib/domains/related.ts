import type { Domain } from "./domains";

/**
 * Records a run's record brings along. An order (or a cart) references its customer by `customerId`; the
 * engine loads that customer with the order (in the same query) and tokens read it as
 * `{entity.customer.<field>}` (SPEC §2 "Templating"). Browser-safe: the editor offers the same
 * tokens and validation checks them against the customer's fields.
 */

/** The domains whose records carry their customer, and the field that names it. */
export const CUSTOMER_REFERENCE: Partial<Record<Domain, "customerId">> = {
  order: "customerId",
  cart: "customerId",
};

/** Where the customer sits in the record tokens read: `{entity.customer.name}`. */
export const CUSTOMER_KEY = "customer";

/** The domains listed in `CUSTOMER_REFERENCE`, for the loader's query. */
export const DOMAINS_WITH_CUSTOMER = Object.keys(CUSTOMER_REFERENCE) as Domain[];

export function bringsCustomer(domain: string): boolean {
  return Object.hasOwn(CUSTOMER_REFERENCE, domain);
}
