import { notFound } from "next/navigation";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { AppError } from "@/lib/errors";

/** The automation of an `/automations/[id]/…` page, or the not-found page (another shop's id included). */
export async function loadAutomationOr404(tenantId: string, id: string) {
  try {
    return await getAutomation(tenantId, id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
}
