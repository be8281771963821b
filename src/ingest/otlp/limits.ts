/**
 * How deep attribute values (arrays and key-value lists inside AnyValue) may nest. Decoding
 * recurses per level, so without a bound a small hostile body could exhaust the stack; real
 * telemetry stays within a handful of levels.
 */
export const MAX_VALUE_DEPTH = 32;

/**
 * The latest time a record may carry: 2^63 - 1 ns after the epoch (2262-04-11T23:47:16Z), the end
 * of the stores' DateTime64(9) range. OTLP times are uint64, so a sender can say more; such a time
 * is read as "not set" (0), as a value the store cannot hold would fail the insert of every
 * request batched with it. Spans and logs then take the time they were received, and metric
 * points without a time are rejected in partial success.
 */
export const MAX_UNIX_NANOS = 2n ** 63n - 1n;
