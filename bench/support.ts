/** Shared helpers of the benchmarks: timing, memory, and one result format. */
export interface Measurement {
  name: string;
  value: number;
  unit: string;
}

export function rssMb(): number {
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - started) / 1000 };
}

/** The value at fraction `p` (0.5: the median) of ascending `sorted`. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function report(title: string, lines: Array<[string, string]>): void {
  const width = Math.max(...lines.map(([label]) => label.length));
  process.stdout.write(`\n## ${title}\n`);
  for (const [label, value] of lines) process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`);
}

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
