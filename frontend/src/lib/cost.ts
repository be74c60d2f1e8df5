// How costs and token counts read in the window. A cost the backend could not know
// (a local model, a model without a price) is null and shows as "—", never as $0.

/** Dollars: cents from a dollar on, four decimals below (a turn often costs a fraction of a cent). */
export function formatUSD(usd: number | null): string {
  if (usd === null) return '—';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  // A tiny cost keeps two significant digits rather than rounding to $0.0000.
  if (usd > 0 && usd < 0.0001) return usd < 0.000001 ? '<$0.000001' : `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(4)}`;
}

/** Tokens, short: 950, 12.3k, 1.2M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The share of the window in use, in whole percent; null when the window is unknown. */
export function contextShare(tokens: number, window: number): number | null {
  if (window <= 0) return null;
  return Math.round((tokens * 100) / window);
}
