/**
 * OTLP log records to log rows. Severity keeps OpenTelemetry's numbers (9 INFO, 13 WARN, 17 ERROR);
 * a record without severity text gets the number's short name (INFO, WARN2, ...). A string body is
 * kept as is, a structured one JSON-encoded. A record without a time takes its observed time, and
 * one without either the time it was received. `event_name` (OTLP 1.5+) has no column of its own
 * and is kept as the `event.name` attribute it replaced.
 */
import { hash } from 'node:crypto';
import { anyValueToJson, flattenAttributes, serviceOf, setOwn } from '../../core/classify/attributes.js';
import type { ClassifyContext } from '../../core/classify/classify-traces.js';
import type { OtlpLogRecord, OtlpLogsRequest } from '../../core/classify/otlp-model.js';
import type { Attributes, LogRecord, UnixNanos } from '../../core/records.js';

const SEVERITY_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];
const SEVERITY_NUMBERS_PER_LEVEL = 4;
const ZERO_ID = /^0*$/;
/** 128 bits of SHA-256: collisions are out of reach at any realistic row count. */
const DEDUP_KEY_LENGTH = 32;

export function convertLogs(request: OtlpLogsRequest, context: ClassifyContext): LogRecord[] {
  const logs: LogRecord[] = [];
  for (const { resource, scopeLogs } of request.resourceLogs) {
    const serviceName = serviceOf(resource).name;
    const resourceAttributes = flattenAttributes(resource.attributes);
    for (const { logRecords } of scopeLogs) {
      for (const record of logRecords) logs.push(logRow(record, serviceName, resourceAttributes, context));
    }
  }
  return logs;
}

function logRow(
  record: OtlpLogRecord,
  serviceName: string,
  resourceAttributes: Attributes,
  context: ClassifyContext,
): LogRecord {
  const observedTimestamp = record.observedTimeUnixNano === 0n ? context.receivedAt : record.observedTimeUnixNano;
  const timestamp = record.timeUnixNano === 0n ? observedTimestamp : record.timeUnixNano;
  const severityText = record.severityText || severityName(record.severityNumber);
  const body =
    record.body.type === 'string'
      ? record.body.value
      : record.body.type === 'empty'
        ? ''
        : JSON.stringify(anyValueToJson(record.body));
  const traceId = ZERO_ID.test(record.traceId) ? '' : record.traceId;
  const spanId = ZERO_ID.test(record.spanId) ? '' : record.spanId;
  const attributes = flattenAttributes(record.attributes);
  if (record.eventName !== '' && attributes['event.name'] === undefined)
    setOwn(attributes, 'event.name', record.eventName);
  return {
    projectId: context.projectId,
    timestamp,
    observedTimestamp,
    severityNumber: record.severityNumber,
    severityText,
    body,
    traceId,
    spanId,
    serviceName,
    attributes,
    resourceAttributes,
    dedupKey: logDedupKey(timestamp, record.severityNumber, traceId, spanId, serviceName, attributes, body),
  };
}

/** OpenTelemetry's short severity names: 1-4 TRACE..TRACE4, 5-8 DEBUG..DEBUG4, and so on. */
function severityName(severityNumber: number): string {
  if (severityNumber <= 0) return '';
  const level = SEVERITY_LEVELS[Math.floor((severityNumber - 1) / SEVERITY_NUMBERS_PER_LEVEL)] ?? '';
  const step = ((severityNumber - 1) % SEVERITY_NUMBERS_PER_LEVEL) + 1;
  return step === 1 ? level : `${level}${step}`;
}

/**
 * Content key: a re-sent export replaces its rows instead of doubling them. Fixed-format fields
 * come first and free text is length-prefixed or last, so distinct records cannot share a key text.
 */
function logDedupKey(
  timestamp: UnixNanos,
  severityNumber: number,
  traceId: string,
  spanId: string,
  serviceName: string,
  attributes: Attributes,
  body: string,
): string {
  const attributesJson = JSON.stringify(attributes);
  const text = `${timestamp}|${severityNumber}|${traceId}|${spanId}|${serviceName.length}:${serviceName}|${attributesJson.length}:${attributesJson}|${body}`;
  return hash('sha256', text).slice(0, DEDUP_KEY_LENGTH);
}
