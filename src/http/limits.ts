/** Body caps of the spec's Limits table, measured after decompression. */
export const LIMITS = {
  reportBytes: 64 * 1024 * 1024,
  otlpBytes: 10 * 1024 * 1024,
  applicationBytes: 8 * 1024 * 1024,
} as const;
