import { errorResponse, json } from "@/lib/api/route";
import { MAX_HOOK_BODY_BYTES, receiveWebhook } from "@/lib/automations/hooks";
import { AppError } from "@/lib/errors";

/**
 * Inbound webhook trigger: authenticated by the URL's token, and when the trigger has a secret by
 * `X-Tillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (lib/automations/hook-signature.ts).
 */
export async function POST(req: Request, context: { params: Promise<{ token: string }> }) {
  try {
    const { token } = await context.params;
    // A declared length over the limit is refused before the body is read.
    if (Number(req.headers.get("content-length") ?? 0) > MAX_HOOK_BODY_BYTES)
      throw new AppError(413, "too_large", "The body is larger than 256 KB.");
    const result = await receiveWebhook(token, await req.text(), req.headers);
    return json(result, 202);
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    console.error("Unhandled error in webhook", error);
    return errorResponse(
      new AppError(500, "internal", "Something went wrong on our side. It has been logged."),
    );
  }
}
