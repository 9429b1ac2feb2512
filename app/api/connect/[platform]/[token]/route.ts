import { readBodyBytes } from "@/lib/api/body";
import { failureResponse, json } from "@/lib/api/route";
import { PLATFORMS, type Platform } from "@/lib/connections/platforms";
import { deliveryTooLarge, receiveDelivery } from "@/lib/connections/receive";
import { notFound } from "@/lib/errors";

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

/**
 * A connected store's webhooks: `POST /api/connect/shopify/<token>` and
 * `/api/connect/woocommerce/<token>`, signed as each platform signs them (lib/connections/signature.ts).
 * Answered 200 as soon as the delivery is recorded; the worker applies it.
 */
export async function POST(req: Request, context: { params: Promise<{ platform: string; token: string }> }) {
  try {
    const { platform, token } = await context.params;
    if (!isPlatform(platform)) throw notFound("This connection URL");
    const readBody = (maxBytes: number) => readBodyBytes(req, maxBytes, deliveryTooLarge);
    return json(await receiveDelivery(platform, token, readBody, req.headers), 200);
  } catch (error) {
    return failureResponse(error, "Unhandled error in a store's delivery");
  }
}
