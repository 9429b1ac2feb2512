import { errorResponse, json } from "@/lib/api/route";
import { receiveWebhook } from "@/lib/automations/hooks";
import { AppError } from "@/lib/errors";

/** Inbound webhook trigger: authenticated by the URL's token (and an HMAC signature if set). */
export async function POST(req: Request, context: { params: Promise<{ token: string }> }) {
  try {
    const { token } = await context.params;
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
