import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "@/components/settings/api-reference";
import { Card, CardHeader } from "@/components/ui/card";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "API reference" };

const DOCUMENT_URL = "/api/v1/openapi.json";

export default async function ApiReferencePage() {
  await requireCaller();
  return (
    <Card className="overflow-hidden">
      <CardHeader
        title="API reference"
        description={
          <>
            Every <code className="font-mono text-xs">/api/v1</code> route, generated from the schemas the API
            checks requests with. Call it with an API key (
            <Link
              href="/settings/api-keys"
              className="font-medium text-zinc-900 underline underline-offset-2"
            >
              Settings → API keys
            </Link>
            ) as <code className="font-mono text-xs">Authorization: Bearer tf_…</code>.
          </>
        }
        actions={
          <a
            href={DOCUMENT_URL}
            className="text-sm font-medium text-zinc-900 underline underline-offset-2"
            download="tillflow-openapi.json"
          >
            OpenAPI 3.1 document
          </a>
        }
      />
      <div data-testid="api-reference">
        <ApiReference url={DOCUMENT_URL} />
      </div>
    </Card>
  );
}
