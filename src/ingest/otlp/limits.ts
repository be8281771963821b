/**
 * How deep attribute values (arrays and key-value lists inside AnyValue) may nest. Decoding
 * recurses per level, so without a bound a small hostile body could exhaust the stack; real
 * telemetry stays within a handful of levels.
 */
export const MAX_VALUE_DEPTH = 32;
