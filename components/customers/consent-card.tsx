import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { ExactTime } from "@/components/ui/exact-time";
import type { CustomerConsentView } from "@/lib/consent/store";
import { ResubscribeForm } from "./resubscribe-form";

const VIA: Record<NonNullable<CustomerConsentView["unsubscribedVia"]>, string> = {
  link: "With the unsubscribe link in a marketing email",
  store: "In the connected store (it says they accept no marketing)",
  merchant: "By the shop",
};

/**
 * The customer's marketing consent: whether marketing steps reach them, when and how they
 * unsubscribed, and the last re-subscribe. Editors may subscribe them again, with a reason.
 */
export function ConsentCard({ consent, canChange }: { consent: CustomerConsentView; canChange: boolean }) {
  const out = consent.unsubscribedAt !== null;
  return (
    <Card>
      <CardHeader title="Marketing consent" />
      <CardBody className="space-y-4">
        <p className="text-sm text-zinc-700">
          {out
            ? "Unsubscribed: marketing steps skip this customer. Transactional emails still go."
            : consent.acceptsMarketing
              ? "Accepts marketing: marketing steps reach this customer."
              : "Does not accept marketing: marketing steps skip this customer. Transactional emails still go."}
        </p>
        <DescriptionList
          columns={1}
          items={[
            ...(out
              ? [
                  { term: "Unsubscribed", detail: <ExactTime value={consent.unsubscribedAt!} /> },
                  { term: "How", detail: consent.unsubscribedVia ? VIA[consent.unsubscribedVia] : "—" },
                ]
              : []),
            ...(consent.resubscribedAt
              ? [
                  {
                    term: "Subscribed again",
                    detail: (
                      <>
                        <ExactTime value={consent.resubscribedAt} /> by {consent.resubscribedBy}: “
                        {consent.resubscribeReason}”
                      </>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {canChange && !consent.acceptsMarketing && <ResubscribeForm customerId={consent.customerId} />}
      </CardBody>
    </Card>
  );
}
