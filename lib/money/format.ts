/**
 * Money as merchants read it, in one fixed locale so the server's HTML, the browser's first render
 * and the emails the engine writes agree ("€65.00"). Browser-safe.
 */
export const LOCALE = "en-US";

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * "€1,234.50" for (1234.5, "EUR"). Without a currency, or with a code Intl does not know, it shows
 * the plain amount (with the code after it) rather than guessing a currency.
 */
export function formatMoney(amount: number, currency?: string | null): string {
  if (!currency) return formatDecimal(amount);
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, { style: "currency", currency });
    } catch {
      return `${formatDecimal(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

const decimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatDecimal(amount: number): string {
  return decimal.format(amount);
}
