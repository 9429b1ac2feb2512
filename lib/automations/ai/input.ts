import { z } from "zod";

/** `POST /api/v1/ai/build` and the "Describe your automation" box: the merchant's sentence. */
export const buildInput = z.strictObject({
  prompt: z
    .string()
    .trim()
    .min(1, "describe the automation in a sentence")
    .max(2000, "use at most 2,000 characters"),
});
