/** A ratio (0.0123) as a percentage ("1.23 %"); '—' when there is none. */
export declare function formatPercent(ratio: number | null | undefined): string;
/** US dollars: cents from a dollar up ("$1,234.00"), two significant digits below ("$0.00030"); '—' when there is none. */
export declare function formatCost(usd: number | null | undefined): string;
