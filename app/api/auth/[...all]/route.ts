import { toNextJsHandler } from "better-auth/next-js";
import { getAuth, isSignInRequest, signInFailedOnOurSide } from "@/lib/auth/auth";

export async function GET(req: Request) {
  return toNextJsHandler(getAuth()).GET(req);
}

export async function POST(req: Request) {
  // Kept to read the email should the sign-in fail on our side (lib/auth/auth.ts).
  const copy = isSignInRequest(req) ? req.clone() : null;
  const response = await toNextJsHandler(getAuth()).POST(req);
  if (copy && response.status >= 500)
    await signInFailedOnOurSide(await copy.json().catch(() => null), copy.headers);
  return response;
}
