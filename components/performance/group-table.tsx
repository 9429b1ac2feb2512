import { formatCount } from "@/components/ui/format";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";

/** "12.5%", or "—" without anyone to divide by. */
export const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)}%`);

export interface GroupRow {
  key: string;
  name: string;
  customers: number;
  conversions: number;
  rate: number | null;
  /** Decimal string or number in the report's currency; null without customers. */
  perCustomer: string | number | null;
}

/**
 * Groups of customers side by side — a split's old branches, the treated and the held-out
 * customers: how many, how many bought, the rate and the revenue per customer.
 */
export function GroupTable({
  caption,
  first,
  bought = "Conversions",
  perCustomer = "Revenue per recipient",
  rows,
  money,
}: {
  caption: string;
  first: string;
  bought?: string;
  perCustomer?: string;
  rows: GroupRow[];
  money: (amount: string | number) => string;
}) {
  return (
    <Table caption={caption}>
      <THead>
        <TR>
          <TH>{first}</TH>
          <TH align="right">Customers</TH>
          <TH align="right">{bought}</TH>
          <TH align="right">{bought === "Conversions" ? "Rate" : "Conversion rate"}</TH>
          <TH align="right">{perCustomer}</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((row) => (
          <TR key={row.key}>
            <TD>{row.name}</TD>
            <TD align="right">{formatCount(row.customers)}</TD>
            <TD align="right">{formatCount(row.conversions)}</TD>
            <TD align="right">{percent(row.rate)}</TD>
            <TD align="right">{row.perCustomer === null ? "—" : money(row.perCustomer)}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
