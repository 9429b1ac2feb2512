import { z } from "zod";
import { recordListShape } from "@/lib/api/shapes";

/** Replies and paths more than one resource's endpoints use. */
export const list = (description: string) => ({ status: 200, description, schema: recordListShape }) as const;

export const cancelled = {
  status: 200,
  description: "How many waits were cancelled.",
  schema: z.object({ cancelled: z.int().min(0) }),
} as const;
