/**
 * Write-time classification of OTLP spans into the derived records of the spec ("Derived records
 * and spans"): endpoints, tasks, AI traces, issues, and span rows re-rooted under their entity.
 *
 * Each span gets one role, decided in this order:
 * 1. junk endpoint: it has `http.route` but no HTTP method, and no parent in this batch (a root,
 *    or separated from its parent): read as a root and filed as `middleware - patched`, status 0;
 * 2. endpoint: kind SERVER, or INTERNAL (or UNSPECIFIED, which OTLP lets receivers read as
 *    INTERNAL) with HTTP attributes (a method or a route), at an inbound entry point;
 * 3. task: kind CONSUMER anywhere, or a root INTERNAL span with `console.command`;
 * 4. AI trace: any other span with a `gen_ai.*` attribute;
 * 5. otherwise a span row when it has a parent, and dropped when it is a root.
 * So a span is at most one entity; an INTERNAL child with HTTP attributes whose parent is in the
 * same process (an in-process sub-handler) is not an entry point and stays a span row.
 *
 * Inbound entry point: a root, or a span whose parent is in another process. The parent is in
 * another process when the span's flags say so: bit 0x100 (has-is-remote) set means the exporter
 * knew, and bit 0x200 then tells whether the parent was remote (OTel JS 2.x, Go, Java and the
 * Collector set them). Without bit 0x100 (older SDKs) a parent absent from the batch is taken as
 * remote: spans of one process are usually exported together. The flag is trusted over batch
 * membership, because exporters split one request's spans across batches routinely.
 *
 * Ids: a root entity (no parent at all, or a junk row) has the OpenTelemetry trace id as its id; a
 * non-root entity has its own span id (as a UUID, the low 8 bytes). A span row's trace id is the id
 * of its nearest enclosing entity in the batch. When the chain of parents leaves the batch before
 * reaching an entity, the enclosing entity is taken to be the trace's root entity (id = trace id),
 * which is right for the common case of an endpoint whose spans straddle two export batches; a
 * chain that ends at a dropped root has no entity and is dropped with it.
 *
 * Distributed trace id: the OpenTelemetry trace id, unless the entity's span carries
 * `sightline.distributed_trace_id` or `traceway.distributed_trace_id`; an entity without its own
 * override takes the one of its enclosing entity in the batch, so one request's entities stay
 * together on the distributed-trace page.
 *
 * Issues: every span event named `exception` on a span that has an owning entity becomes an
 * exception record of that entity (two events, e.g. from two wrapping spans, make two). Spans the
 * spec drops take their events with them.
 */
import { exceptionHash } from '../grouping.js';
import {
  emptyBatch,
  NIL_UUID,
  type AiTraceRecord,
  type Attributes,
  type EndpointRecord,
  type EntityBase,
  type ExceptionRecord,
  type SpanKind,
  type SpanRecord,
  type TaskRecord,
  type TelemetryBatch,
  type UnixNanos,
  type Uuid,
} from '../records.js';
import { hasGenAiAttributes, readAiCall } from './ai.js';
import { anyValueToString, findAttribute, flattenAttributes, type Service, serviceOf } from './attributes.js';
import { extractConversation, serializeConversation } from './conversation.js';
import {
  clientAddress,
  endpointName,
  hasHttpAttributes,
  httpMethod,
  httpRoute,
  isStreamingResponse,
  JUNK_ENDPOINT,
  responseBodySize,
  statusCodeOf,
} from './http.js';
import { distributedTraceIdOverride, spanIdToUuid, traceIdToUuid } from './ids.js';
import {
  type KeyValue,
  type OtlpSpan,
  type OtlpTraceRequest,
  SPAN_FLAG_HAS_IS_REMOTE,
  SPAN_FLAG_IS_REMOTE,
} from './otlp-model.js';
import { type Rejections, reject } from './rejections.js';

export interface ClassifyContext {
  projectId: Uuid;
  /** When the request arrived: the time of spans that carry no start time. */
  receivedAt: UnixNanos;
}

/** A conversation document for the object store, under `ai/{projectId}/{entityId}.json`. */
export interface StoredConversation {
  key: string;
  json: string;
}

export interface TraceClassification {
  /** Endpoints, tasks, AI traces, span rows and exceptions; the other tables stay empty. */
  batch: TelemetryBatch;
  /** Spans that could not be read (no trace or span id): the partial_success of the response. */
  rejected: Rejections;
  /** Spans the spec drops on purpose: roots that are no entity, and spans under them. */
  dropped: number;
  conversations: StoredConversation[];
}

type Role = 'junk' | 'endpoint' | 'task' | 'ai' | 'span' | 'dropped';

/** The entity a span belongs to, as exception and span rows need it. */
interface Owner {
  id: Uuid;
  distributedTraceId: Uuid;
  isTask: boolean;
}

interface SpanNode {
  readonly span: OtlpSpan;
  readonly service: Service;
  readonly attributes: Attributes;
  /** The parent span when it is in this batch. */
  parent: SpanNode | undefined;
  role: Role;
  /** Resolved lazily: undefined until resolved, null when the span has no entity. */
  owner: Owner | null | undefined;
  /** Guards the owner walk against parent cycles a malformed batch can contain. */
  visitedInWalk: number;
}

const EXCEPTION_EVENT = 'exception';
const STACKTRACE_ATTRIBUTE = 'exception.stacktrace';

export function classifyTraces(request: OtlpTraceRequest, context: ClassifyContext): TraceClassification {
  const rejected: Rejections = { count: 0, messages: [] };
  const nodes = collectSpans(request, rejected);
  linkParents(nodes);
  for (const node of nodes) node.role = roleOf(node);
  resolveOwners(nodes);

  const result: TraceClassification = { batch: emptyBatch(), rejected, dropped: 0, conversations: [] };
  for (const node of nodes) {
    const owner = node.owner;
    if (owner === null || owner === undefined) {
      result.dropped++;
      continue;
    }
    addRecords(node, owner, context, result);
    addExceptions(node, owner, context, result.batch);
  }
  return result;
}

function collectSpans(request: OtlpTraceRequest, rejected: Rejections): SpanNode[] {
  const nodes: SpanNode[] = [];
  for (const { resource, scopeSpans } of request.resourceSpans) {
    const service = serviceOf(resource);
    for (const { spans } of scopeSpans) {
      for (const span of spans) {
        if (!isValidId(span.traceId) || !isValidId(span.spanId)) {
          reject(rejected, 'spans without a valid trace_id and span_id were rejected');
          continue;
        }
        nodes.push({
          span,
          service,
          attributes: flattenAttributes(span.attributes),
          parent: undefined,
          role: 'dropped',
          owner: undefined,
          visitedInWalk: -1,
        });
      }
    }
  }
  return nodes;
}

function isValidId(hex: string): boolean {
  for (let i = 0; i < hex.length; i++) if (hex.charCodeAt(i) !== 0x30 /* '0' */) return true;
  return false;
}

function linkParents(nodes: readonly SpanNode[]): void {
  // Span ids are unique within a trace: index by trace, then span.
  const byTrace = new Map<string, Map<string, SpanNode>>();
  for (const node of nodes) {
    let spans = byTrace.get(node.span.traceId);
    if (spans === undefined) byTrace.set(node.span.traceId, (spans = new Map()));
    if (!spans.has(node.span.spanId)) spans.set(node.span.spanId, node);
  }
  for (const node of nodes) {
    if (node.span.parentSpanId !== '') node.parent = byTrace.get(node.span.traceId)?.get(node.span.parentSpanId);
  }
}

function roleOf({ span, attributes, parent }: SpanNode): Role {
  const isRoot = span.parentSpanId === '';
  if (httpMethod(attributes) === '' && attributes['http.route'] !== undefined && parent === undefined) return 'junk';
  const kind = recordKind(span);
  const isEntryPoint = isRoot || parentIsRemote(span, parent);
  if (isEntryPoint && (kind === 'SERVER' || (kind === 'INTERNAL' && hasHttpAttributes(attributes)))) return 'endpoint';
  if (kind === 'CONSUMER' || (isRoot && kind === 'INTERNAL' && attributes['console.command'] !== undefined))
    return 'task';
  if (hasGenAiAttributes(span.attributes)) return 'ai';
  return isRoot ? 'dropped' : 'span';
}

function parentIsRemote(span: OtlpSpan, parentInBatch: SpanNode | undefined): boolean {
  if ((span.flags & SPAN_FLAG_HAS_IS_REMOTE) !== 0) return (span.flags & SPAN_FLAG_IS_REMOTE) !== 0;
  return parentInBatch === undefined;
}

const isEntity = (role: Role): boolean => role === 'junk' || role === 'endpoint' || role === 'task' || role === 'ai';

/** Whether the entity is read as a root: no parent in any process, or a junk row. */
const isRootEntity = (node: SpanNode): boolean => node.span.parentSpanId === '' || node.role === 'junk';

/**
 * Sets every node's owner, top-down along each chain of in-batch parents. Iterative, so a deep
 * chain cannot overflow the stack.
 */
function resolveOwners(nodes: readonly SpanNode[]): void {
  for (let walk = 0; walk < nodes.length; walk++) {
    const chain: SpanNode[] = [];
    let cursor: SpanNode | undefined = nodes[walk];
    while (cursor !== undefined && cursor.owner === undefined && cursor.visitedInWalk !== walk) {
      cursor.visitedInWalk = walk;
      chain.push(cursor);
      cursor = cursor.parent;
    }
    if (chain.length === 0) continue;
    // A resolved ancestor passes its owner down; a chain that leaves the batch (or loops) starts
    // from the assumed root entity of the trace, and one that ends at a root has none.
    const top = chain[chain.length - 1]!;
    let inherited: Owner | null;
    if (cursor !== undefined && cursor.owner !== undefined) inherited = cursor.owner;
    else if (top.span.parentSpanId === '') inherited = null;
    else inherited = assumedRootOwner(top.span);
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = chain[i]!;
      node.owner = isEntity(node.role) ? entityOwner(node, inherited) : node.role === 'span' ? inherited : null;
      inherited = node.owner;
    }
  }
}

function assumedRootOwner(span: OtlpSpan): Owner {
  const rootId = traceIdToUuid(span.traceId);
  return { id: rootId, distributedTraceId: rootId, isTask: false };
}

function entityOwner(node: SpanNode, enclosing: Owner | null): Owner {
  const { span } = node;
  return {
    id: isRootEntity(node) ? traceIdToUuid(span.traceId) : spanIdToUuid(span.spanId),
    distributedTraceId:
      distributedTraceIdOverride(node.attributes) ?? enclosing?.distributedTraceId ?? traceIdToUuid(span.traceId),
    isTask: node.role === 'task',
  };
}

function startTimeOf(span: OtlpSpan, context: ClassifyContext): UnixNanos {
  return span.startTimeUnixNano === 0n ? context.receivedAt : span.startTimeUnixNano;
}

function durationOf(span: OtlpSpan): bigint {
  return span.startTimeUnixNano !== 0n && span.endTimeUnixNano > span.startTimeUnixNano
    ? span.endTimeUnixNano - span.startTimeUnixNano
    : 0n;
}

function addRecords(node: SpanNode, owner: Owner, context: ClassifyContext, result: TraceClassification): void {
  const { span, attributes, service } = node;
  if (node.role === 'span') {
    result.batch.spans.push(spanRow(node, owner, context));
    return;
  }
  const isRoot = isRootEntity(node);
  const base: EntityBase = {
    projectId: context.projectId,
    id: owner.id,
    distributedTraceId: owner.distributedTraceId,
    parentSpanId: isRoot ? NIL_UUID : spanIdToUuid(span.parentSpanId),
    isRoot,
    recordedAt: startTimeOf(span, context),
    durationNs: durationOf(span),
    serverName: service.name,
    appVersion: service.version,
    attributes,
    source: 'otlp',
  };
  // Object.assign, not spread: `{ ...base, more }` falls off V8's fast path (tens of times slower).
  switch (node.role) {
    case 'junk':
    case 'endpoint':
      result.batch.endpoints.push(endpointRecord(base, node));
      break;
    case 'task': {
      const task: TaskRecord = Object.assign(base, {
        name: attributes['console.command'] || span.name,
        statusCode: statusCodeOf(attributes, span.status.code),
      });
      result.batch.tasks.push(task);
      break;
    }
    case 'ai': {
      const conversation = extractConversation(span);
      const json = conversation === undefined ? undefined : serializeConversation(conversation);
      const conversationKey = json === undefined ? '' : `ai/${context.projectId}/${owner.id}.json`;
      if (json !== undefined) result.conversations.push({ key: conversationKey, json });
      const aiTrace: AiTraceRecord = Object.assign(base, readAiCall(span, attributes, conversation), {
        conversationKey,
      });
      result.batch.aiTraces.push(aiTrace);
      break;
    }
  }
}

/** Junk rows are named `middleware - patched` and have status 0, whatever the span says. */
function endpointRecord(base: EntityBase, { span, attributes, role }: SpanNode): EndpointRecord {
  const isJunk = role === 'junk';
  const method = httpMethod(attributes);
  const route = httpRoute(attributes);
  const statusCode = isJunk ? 0 : statusCodeOf(attributes, span.status.code);
  return Object.assign(base, {
    name: isJunk ? JUNK_ENDPOINT : endpointName(method, route, span.name),
    method,
    route,
    statusCode,
    bodySize: responseBodySize(attributes),
    clientIp: clientAddress(attributes),
    streaming: isStreamingResponse(attributes, statusCode),
  });
}

function spanRow({ span, attributes }: SpanNode, owner: Owner, context: ClassifyContext): SpanRecord {
  const startTime = startTimeOf(span, context);
  return {
    projectId: context.projectId,
    traceId: owner.id,
    // The decoder's hex, which the row encoder reads as the UUID (records.ts, SpanId).
    spanId: span.spanId,
    parentSpanId: span.parentSpanId === '' ? NIL_UUID : span.parentSpanId,
    name: span.name,
    kind: recordKind(span),
    startTime,
    durationNs: durationOf(span),
    statusCode: statusCodeOf(attributes, span.status.code),
    attributes,
    events: span.events.map((event) => ({
      time: event.timeUnixNano === 0n ? startTime : event.timeUnixNano,
      name: event.name,
      attributes: flattenAttributes(event.attributes),
    })),
  };
}

/** OTLP lets receivers read UNSPECIFIED as INTERNAL; span rows have no UNSPECIFIED. */
function recordKind(span: OtlpSpan): SpanKind {
  return span.kind === 'UNSPECIFIED' ? 'INTERNAL' : span.kind;
}

/**
 * Stack text: `exception.stacktrace` when present (it already starts with `Type: message` in the
 * common runtimes), else `exception.type: exception.message`. The stack trace is not repeated in
 * the exception's attributes.
 */
function addExceptions(
  { span, service }: SpanNode,
  owner: Owner,
  context: ClassifyContext,
  batch: TelemetryBatch,
): void {
  for (let index = 0; index < span.events.length; index++) {
    const event = span.events[index]!;
    if (event.name !== EXCEPTION_EVENT) continue;
    const attributes = flattenAttributes(event.attributes.filter(({ key }) => key !== STACKTRACE_ATTRIBUTE));
    const stackTrace = stackTraceOf(event.attributes, attributes);
    const exception: ExceptionRecord = {
      projectId: context.projectId,
      hash: exceptionHash(stackTrace, false),
      // One occurrence per event of a span: a re-sent batch replaces rather than adds.
      dedupKey: `${span.traceId}-${span.spanId}-${index}`,
      recordedAt: event.timeUnixNano === 0n ? startTimeOf(span, context) : event.timeUnixNano,
      stackTrace,
      rawStackTrace: '',
      isMessage: false,
      traceId: owner.id,
      isTask: owner.isTask,
      sessionId: NIL_UUID,
      sessionRecordingId: NIL_UUID,
      distributedTraceId: owner.distributedTraceId,
      serverName: service.name,
      appVersion: service.version,
      attributes,
      source: 'otlp',
    };
    batch.exceptions.push(exception);
  }
}

function stackTraceOf(eventAttributes: readonly KeyValue[], attributes: Attributes): string {
  const stackTrace = findAttribute(eventAttributes, STACKTRACE_ATTRIBUTE);
  if (stackTrace !== undefined && stackTrace.type !== 'empty') return anyValueToString(stackTrace);
  const type = attributes['exception.type'] ?? '';
  const message = attributes['exception.message'] ?? '';
  if (type !== '' && message !== '') return `${type}: ${message}`;
  return type || message || EXCEPTION_EVENT;
}
