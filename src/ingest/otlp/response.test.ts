/**
 * Export responses, checked by the OpenTelemetry JS SDK's own response deserializers: what an
 * exporter reads back is what was meant.
 */
import {
  JsonLogsSerializer,
  JsonMetricsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufMetricsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { encodeExportResponse } from './index.js';

describe('export responses', () => {
  it('a full success is an empty body in protobuf and {} in JSON', () => {
    expect(encodeExportResponse('traces', 'protobuf')).toEqual({
      body: new Uint8Array(0),
      contentType: 'application/x-protobuf',
    });
    expect(encodeExportResponse('logs', 'protobuf', { count: 0, messages: [] }).body).toHaveLength(0);
    const json = encodeExportResponse('metrics', 'json');
    expect([Buffer.from(json.body).toString(), json.contentType]).toEqual(['{}', 'application/json']);
  });

  it('reports partial success in protobuf as the SDK exporters read it', () => {
    const rejected = { count: 300, messages: ['spans without a valid trace_id and span_id were rejected', 'and more'] };
    const errorMessage = 'spans without a valid trace_id and span_id were rejected; and more';
    expect(
      ProtobufTraceSerializer.deserializeResponse(encodeExportResponse('traces', 'protobuf', rejected).body),
    ).toEqual({
      partialSuccess: { rejectedSpans: 300, errorMessage },
    });
    expect(
      ProtobufMetricsSerializer.deserializeResponse(encodeExportResponse('metrics', 'protobuf', rejected).body),
    ).toEqual({
      partialSuccess: { rejectedDataPoints: 300, errorMessage },
    });
    expect(
      ProtobufLogsSerializer.deserializeResponse(
        encodeExportResponse('logs', 'protobuf', { count: 0, messages: ['warning'] }).body,
      ),
    ).toEqual({
      partialSuccess: { errorMessage: 'warning' },
    });
  });

  it('reports partial success in JSON, int64 as a decimal string', () => {
    const errorMessage = 'data points without time_unix_nano were rejected';
    const partial = { count: 2, messages: [errorMessage] };
    expect(JsonMetricsSerializer.deserializeResponse(encodeExportResponse('metrics', 'json', partial).body)).toEqual({
      partialSuccess: { rejectedDataPoints: '2', errorMessage },
    });
    expect(JsonTraceSerializer.deserializeResponse(encodeExportResponse('traces', 'json', partial).body)).toMatchObject(
      { partialSuccess: { rejectedSpans: '2' } },
    );
    expect(JsonLogsSerializer.deserializeResponse(encodeExportResponse('logs', 'json', partial).body)).toMatchObject({
      partialSuccess: { rejectedLogRecords: '2' },
    });
    expect(JSON.parse(Buffer.from(encodeExportResponse('profiles', 'json', partial).body).toString())).toEqual({
      partialSuccess: { rejectedProfiles: '2', errorMessage },
    });
  });
});
