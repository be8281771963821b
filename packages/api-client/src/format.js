// Figures as Sightline shows them to people, one implementation for the dashboard's pages and the
// CLI's tables (both already depend on this package). Plain ESM, like index.js.

/** A ratio (0.0123) as a percentage ("1.23 %"); small non-zero ratios keep two significant figures. */
export function formatPercent(ratio) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  const percent = ratio * 100;
  if (percent === 0) return '0 %';
  return `${percent < 1 ? Number(percent.toPrecision(2)) : Number(percent.toFixed(percent < 10 ? 2 : 1))} %`;
}

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Two significant digits, trailing zeros kept, never an exponent: 0.0003 → "0.00030". */
const subDollars = new Intl.NumberFormat('en-US', {
  minimumSignificantDigits: 2,
  maximumSignificantDigits: 2,
  useGrouping: false,
});

/**
 * Money in US dollars (AI cost): a dollar and more in cents ("$1.50", "$1,234.00"), less in two
 * significant digits ("$0.12", "$0.012", "$0.00030"), so sub-cent calls compare digit for digit
 * and an input and output cost visibly add up to their total.
 */
export function formatCost(usd) {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return '—';
  const sign = usd < 0 ? '-' : '';
  const value = Math.abs(usd);
  if (value === 0) return '$0.00';
  // From 0.995 two significant digits would read "$1.0": cents take over there.
  return `${sign}$${value < 0.995 ? subDollars.format(value) : dollars.format(value)}`;
}
