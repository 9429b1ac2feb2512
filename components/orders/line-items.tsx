import type { LineItem } from "@/components/entities/fields";
import { formatMoney } from "@/components/ui/format";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";

/** An order's line items with their line totals and the order total underneath. */
export function LineItems({
  items,
  total,
  currency,
}: {
  items: LineItem[];
  total: number | null;
  currency: string | null;
}) {
  if (items.length === 0)
    return <p className="px-5 py-4 text-sm text-zinc-500">This order has no line items.</p>;
  return (
    <Table caption="Line items">
      <THead>
        <TR>
          <TH>Item</TH>
          <TH align="right">Quantity</TH>
          <TH align="right">Price</TH>
          <TH align="right">Line total</TH>
        </TR>
      </THead>
      <TBody>
        {items.map((item, i) => (
          <TR key={`${item.sku}-${i}`}>
            <TD>
              <p className="font-medium text-zinc-900">{item.title || item.sku}</p>
              {(item.variantTitle || item.vendor) && (
                <p className="text-xs text-zinc-600">
                  {[item.variantTitle, item.vendor && `by ${item.vendor}`].filter(Boolean).join(" · ")}
                </p>
              )}
              <p className="font-mono text-xs text-zinc-500">{item.sku}</p>
            </TD>
            <TD align="right">{item.quantity}</TD>
            <TD align="right">{formatMoney(item.price, currency)}</TD>
            <TD align="right">{formatMoney(item.price * item.quantity, currency)}</TD>
          </TR>
        ))}
      </TBody>
      {total !== null && (
        <tfoot className="border-t border-zinc-200">
          <tr>
            <th
              scope="row"
              colSpan={3}
              className="px-4 py-3 pl-5 text-right text-sm font-medium text-zinc-700"
            >
              Total
            </th>
            <td className="px-4 py-3 pr-5 text-right text-sm font-semibold text-zinc-900 tabular-nums">
              {formatMoney(total, currency)}
            </td>
          </tr>
        </tfoot>
      )}
    </Table>
  );
}
