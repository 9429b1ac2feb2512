import { eq } from "drizzle-orm";
import { createTenant } from "@/lib/auth/tenants";
import type { Caller } from "@/lib/identity/caller";
import type { Role } from "@/lib/identity/roles";
import { addMember } from "@/lib/auth/users";
import { ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { findTemplate } from "@/lib/automations/lifecycle/templates";
import { getDb } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import type { Domain } from "@/lib/domains/domains";
import { upsertEntity } from "@/lib/entities/service";
import { config } from "@/lib/config/config";

export const DEMO_SLUG = "demo";
export const DEMO_PASSWORD = config().TILLFLOW_DEMO_PASSWORD ?? "tillflow-demo";
export const DEMO_USERS = [
  { email: "admin@demo.test", name: "Ada Admin", role: "admin" },
  { email: "editor@demo.test", name: "Eddie Editor", role: "editor" },
  { email: "viewer@demo.test", name: "Vera Viewer", role: "viewer" },
] as const;

/**
 * The n-th demo shop (1-based): the first is "demo" with the users above, the n-th "demo-n" with
 * the same users at `@demo-n.test` (e2e/helpers.ts names them the same way, one shop per worker).
 */
export function demoShop(n: number): { slug: string; users: { email: string; name: string; role: Role }[] } {
  if (n === 1) return { slug: DEMO_SLUG, users: [...DEMO_USERS] };
  const slug = `${DEMO_SLUG}-${n}`;
  return {
    slug,
    users: DEMO_USERS.map((user) => ({ ...user, email: user.email.replace("@demo.test", `@${slug}.test`) })),
  };
}

const FIRST_NAMES = [
  "Alice",
  "Bruno",
  "Chloé",
  "Dmitri",
  "Elif",
  "Farah",
  "Gustav",
  "Hana",
  "Ivo",
  "Jun",
  "Kemal",
  "Lena",
];
const LAST_NAMES = ["Martin", "Rossi", "Nguyen", "Schmidt", "Okafor", "Dubois", "Silva", "Kowalski"];
const PRODUCTS = [
  { sku: "MUG-01", title: "Stoneware mug", price: 18 },
  { sku: "TEE-02", title: "Organic tee", price: 32 },
  { sku: "CAP-03", title: "Canvas cap", price: 24 },
  { sku: "BAG-04", title: "Market tote", price: 29 },
  { sku: "SOC-05", title: "Wool socks", price: 14 },
  { sku: "JAR-06", title: "Honey jar", price: 11 },
];

const days = (n: number) => new Date(Date.UTC(2026, 10, 1) - n * 86_400_000).toISOString();

/** The records of the demo shop, deterministic so screenshots and tests stay stable. */
function demoRecords(): { domain: Domain; id: string; body: Record<string, unknown> }[] {
  const records: { domain: Domain; id: string; body: Record<string, unknown> }[] = [];
  for (let i = 1; i <= 16; i++) {
    const name = `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[i % LAST_NAMES.length]}`;
    records.push({
      domain: "customer",
      id: `cus_${i}`,
      body: {
        email: `${name.split(" ")[0]!.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "")}${i}@example.com`,
        name,
        ordersCount: i % 5,
        totalSpent: (i % 5) * 42.5,
        acceptsMarketing: i % 3 !== 0,
        createdAt: days(200 - i * 10),
        tags: i % 4 === 0 ? ["vip"] : i % 5 === 0 ? ["wholesale"] : [],
      },
    });
  }
  const statuses = ["pending", "paid", "paid", "fulfilled", "fulfilled", "cancelled", "refunded"] as const;
  for (let i = 0; i < 24; i++) {
    const items = [PRODUCTS[i % PRODUCTS.length]!, PRODUCTS[(i * 7 + 3) % PRODUCTS.length]!].slice(
      0,
      1 + (i % 2),
    );
    const lineItems = items.map((p, n) => ({
      sku: p.sku,
      title: p.title,
      quantity: 1 + ((i + n) % 3),
      price: p.price,
    }));
    const customer = 1 + (i % 16);
    records.push({
      domain: "order",
      id: `ord_${1001 + i}`,
      body: {
        number: `#${1001 + i}`,
        status: statuses[i % statuses.length],
        total: lineItems.reduce((sum, li) => sum + li.quantity * li.price, 0),
        currency: i % 6 === 5 ? "USD" : "EUR",
        email: `${FIRST_NAMES[customer % FIRST_NAMES.length]!.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "")}${customer}@example.com`,
        customerId: `cus_${customer}`,
        lineItems,
        createdAt: days(30 - i),
        tags: i % 7 === 0 ? ["gift"] : [],
      },
    });
  }
  PRODUCTS.forEach((p, i) =>
    records.push({
      domain: "product",
      id: `prod_${p.sku.toLowerCase()}`,
      body: { title: p.title, inventory: [42, 3, 17, 0, 120, 8][i], status: "active" },
    }),
  );
  for (let i = 1; i <= 5; i++) {
    records.push({
      domain: "cart",
      id: `cart_${i}`,
      body: {
        status: i <= 3 ? "open" : i === 4 ? "abandoned" : "converted",
        total: 18 * i,
        email: `shopper${i}@example.com`,
        items: [{ sku: "MUG-01", quantity: i, price: 18 }],
        updatedAt: days(i),
      },
    });
  }
  records.push(
    {
      domain: "refund",
      id: "ref_1",
      body: { orderId: "ord_1007", amount: 32, reason: "Wrong size", status: "succeeded" },
    },
    {
      domain: "refund",
      id: "ref_2",
      body: { orderId: "ord_1014", amount: 18, reason: "Arrived damaged", status: "pending" },
    },
    {
      domain: "shipment",
      id: "shp_1",
      body: { orderId: "ord_1004", status: "delivered", carrier: "DHL", tracking: "JD0146000" },
    },
    {
      domain: "shipment",
      id: "shp_2",
      body: { orderId: "ord_1005", status: "in_transit", carrier: "UPS", tracking: "1Z999AA1" },
    },
    {
      domain: "shipment",
      id: "shp_3",
      body: { orderId: "ord_1011", status: "failed", carrier: "La Poste", tracking: "6A1234" },
    },
    {
      domain: "invoice",
      id: "inv_1",
      body: { customerId: "cus_5", amount: 480, status: "sent", dueAt: days(-14) },
    },
    {
      domain: "invoice",
      id: "inv_2",
      body: { customerId: "cus_10", amount: 1250, status: "overdue", dueAt: days(5) },
    },
    {
      domain: "invoice",
      id: "inv_3",
      body: { customerId: "cus_15", amount: 96, status: "paid", dueAt: days(20) },
    },
  );
  return records;
}

/**
 * The demo's example automations, published and on: real flows from the template gallery (one
 * with a wait and a condition), named so they read as examples beside the merchant's own.
 */
const EXAMPLES = [
  { template: "review-after-delivery", name: "Example: ask for a review 2 days after delivery" },
  { template: "escalate-unfulfilled", name: "Example: escalate orders unfulfilled after 24 hours" },
  { template: "tag-vip", name: "Example: tag VIP customers" },
] as const;

async function seedExamples(admin: Caller): Promise<void> {
  for (const example of EXAMPLES) {
    const template = findTemplate(example.template);
    if (!template) throw new Error(`The demo's example template '${example.template}' is missing.`);
    const draft = await createAutomation(admin, { name: example.name, graph: template.graph });
    await publishAutomation(admin, draft.id, { note: "Example automation of the demo shop." });
  }
}

/**
 * Seeds the n-th demo shop once (`demoShop`): the "Demo Store" tenant, its three staff accounts,
 * sample records of every domain and example automations (published after the records, so seeding
 * starts no run). Returns false when the shop already exists (nothing is touched).
 */
export async function seedDemo(n = 1): Promise<boolean> {
  const shop = demoShop(n);
  const [existing] = await getDb()
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.slug, shop.slug));
  if (existing) return false;
  const tenant = await createTenant({ slug: shop.slug, name: "Demo Store", timezone: "Europe/Paris" });
  const members = [];
  for (const user of shop.users)
    members.push(await addMember(tenant.id, { ...user, password: DEMO_PASSWORD }));
  for (const record of demoRecords())
    await upsertEntity(tenant.id, record.domain, record.id, record.body, "seed");
  const admin = members[0]!;
  await seedExamples({
    tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name, timezone: tenant.timezone },
    role: "admin",
    actor: { kind: "user", userId: admin.userId, email: admin.email, name: admin.name },
  });
  // The platform's built-in automations (abandoned carts, overdue invoices, history purge); the
  // worker's heartbeat would create them within a minute anyway, the demo should not wait for it.
  await ensureBuiltins(tenant.id);
  return true;
}
