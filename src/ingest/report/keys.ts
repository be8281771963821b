/**
 * Content keys of report records. The exception and metric tables replace rows with equal keys,
 * so a frame the client re-sends (it keeps frames until it sees a 200) is stored once.
 *
 * Keys cover the record's content only, not the project: rows are keyed by project anyway.
 * Each key string puts the fields of fixed format first and length-prefixes free text, so two
 * different field tuples can never concatenate to the same string.
 */
import { hash } from 'node:crypto';
import { NIL_UUID, type Attributes, type UnixNanos, type Uuid } from '../../core/records.js';

/** 128 bits: collisions are out of reach at any realistic row count. */
const DEDUP_KEY_LENGTH = 32;

function contentKey(text: string): string {
  return hash('sha256', text).slice(0, DEDUP_KEY_LENGTH);
}

export function exceptionDedupKey(
  recordedAt: UnixNanos,
  isMessage: boolean,
  traceId: Uuid,
  sessionId: Uuid,
  stackTrace: string,
): string {
  // The stack trace is the only free text and comes last, so it needs no length prefix.
  return contentKey(`${recordedAt}|${isMessage ? 1 : 0}|${traceId}|${sessionId}|${stackTrace}`);
}

/**
 * Dimensions are part of the key only when present: two points of one metric at one instant with
 * different tags are different points.
 */
export function metricDedupKey(
  name: string,
  recordedAt: UnixNanos,
  value: number,
  serverName: string,
  dimensions: Attributes,
): string {
  const key = `${recordedAt}|${value}|${serverName.length}:${serverName}|${name.length}:${name}`;
  const dimensionsJson = JSON.stringify(dimensions);
  return contentKey(dimensionsJson === '{}' ? key : `${key}|${dimensionsJson}`);
}

/** Deterministic, so a re-sent segment overwrites its object instead of orphaning the old one. */
export function recordingObjectKey(projectId: Uuid, sessionId: Uuid, exceptionId: Uuid, segmentIndex: number): string {
  const session = sessionId === NIL_UUID ? 'nosession' : sessionId;
  const exception = exceptionId === NIL_UUID ? 'noexception' : exceptionId;
  return `recordings/${projectId}/${session}/${exception}/${segmentIndex}.json.gz`;
}
