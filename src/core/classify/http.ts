/**
 * What an HTTP span says about the request it served: method, route, endpoint name, status,
 * response size, client address and whether the response streamed. Attribute names are the
 * current semantic conventions first, then their pre-1.21 names, which older instrumentations
 * still send.
 */
import type { Attributes } from '../records.js';
import { firstAttribute } from './attributes.js';
import type { OtlpStatusCode } from './otlp-model.js';

export const UNMATCHED_ENDPOINT = 'UNMATCHED';
/** The spec's name for junk rows: a route but no method, read as a root (see classify-traces.ts). */
export const JUNK_ENDPOINT = 'middleware - patched';

const METHOD_KEYS = ['http.request.method', 'http.method'];
const STATUS_CODE_KEYS = ['http.response.status_code', 'http.status_code'];
const BODY_SIZE_KEYS = [
  'http.response.body.size',
  'http.response_content_length',
  'http.response_content_length_uncompressed',
];
/** The client first; the network peer (possibly a proxy) only when nothing better is known. */
const CLIENT_ADDRESS_KEYS = ['client.address', 'http.client_ip', 'network.peer.address', 'net.peer.ip'];
const MAX_STATUS_CODE = 0xffff;
const SWITCHING_PROTOCOLS = 101;
/** Routes made only of slashes and wildcards match everything, so they name no endpoint. */
const CATCH_ALL_ROUTE = /^[/*]*$/;

/** Upper-case method; `_OTHER` (a method outside the known set) resolves to the original. */
export function httpMethod(attributes: Attributes): string {
  const method = firstAttribute(attributes, METHOD_KEYS)?.toUpperCase() ?? '';
  return method === '_OTHER' ? (attributes['http.request.method_original']?.toUpperCase() ?? method) : method;
}

export function httpRoute(attributes: Attributes): string {
  return attributes['http.route'] ?? '';
}

/** "HTTP attributes" of the classification table: a request method or a route template. */
export function hasHttpAttributes(attributes: Attributes): boolean {
  return httpMethod(attributes) !== '' || attributes['http.route'] !== undefined;
}

/**
 * `METHOD route`; UNMATCHED when the route is missing or only slashes and wildcards (a 404 on a
 * matched route keeps its name, since the route is there). A server span with no HTTP method at
 * all (gRPC and other non-HTTP servers) is named by its span name, which the semantic conventions
 * keep low-cardinality.
 */
export function endpointName(method: string, route: string, spanName: string): string {
  if (method === '') return spanName;
  return CATCH_ALL_ROUTE.test(route.trim()) ? UNMATCHED_ENDPOINT : `${method} ${route}`;
}

/**
 * The status stored on endpoint, task and span rows: the HTTP response status when the span has
 * one; otherwise 500 for an OpenTelemetry ERROR status and 0 (unknown) for anything else.
 */
export function statusCodeOf(attributes: Attributes, status: OtlpStatusCode): number {
  const httpStatus = Number.parseInt(firstAttribute(attributes, STATUS_CODE_KEYS) ?? '', 10);
  if (httpStatus >= 0 && httpStatus <= MAX_STATUS_CODE) return httpStatus;
  return status === 'ERROR' ? 500 : 0;
}

export function responseBodySize(attributes: Attributes): number {
  const size = Number.parseInt(firstAttribute(attributes, BODY_SIZE_KEYS) ?? '', 10);
  return Number.isSafeInteger(size) && size > 0 ? size : 0;
}

export function clientAddress(attributes: Attributes): string {
  return firstAttribute(attributes, CLIENT_ADDRESS_KEYS) ?? '';
}

/**
 * SSE (response content type text/event-stream) or WebSocket (101 Switching Protocols, an
 * `Upgrade: websocket` header, or a ws/wss URL). Header attributes are string arrays in the
 * conventions, so they arrive JSON-encoded: a substring test covers both forms.
 */
export function isStreamingResponse(attributes: Attributes, statusCode: number): boolean {
  if (statusCode === SWITCHING_PROTOCOLS) return true;
  const contentType = attributes['http.response.header.content-type'] ?? '';
  const upgrade = attributes['http.request.header.upgrade'] ?? attributes['http.response.header.upgrade'] ?? '';
  const scheme = attributes['url.scheme'] ?? '';
  return (
    contentType.toLowerCase().includes('text/event-stream') ||
    upgrade.toLowerCase().includes('websocket') ||
    scheme === 'ws' ||
    scheme === 'wss'
  );
}
