import { flow } from "@/tests/helpers/flows";

/** The recount tests' automation: a customer is created, and an email goes to them. */
export const mailFlow = (subject: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      {
        id: "mail",
        type: "auto.action.send_email",
        params: { to: "{entity.email}", subject, body: "Hello.", purpose: "transactional" },
      },
    ],
    [["t", "mail"]],
  );

/** A small seeded generator: the mix is random but the same each run. */
export function seededRandom(seed: number) {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return { random, pick };
}
