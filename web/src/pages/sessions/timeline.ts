/**
 * The session's timeline: console logs, network calls, navigations, clicks and custom actions of
 * the recording, plus the session's exceptions, each at its moment on the replay's clock
 * (milliseconds after the recording's first event). The logs and actions are whatever the
 * browser client sent (the spec leaves their shape open), so they are read defensively; the rrweb
 * events fill in what the client did not send (navigations from Meta events, console plugin
 * entries, clicks) without repeating what it did.
 */
// Relative, with .js: the browser suite imports this file under the server's module resolution.
import type { RecordedEvent, SessionException, SessionRecording } from './types.js';

export type TimelineKind = 'navigation' | 'log' | 'network' | 'click' | 'custom' | 'exception';

export interface TimelineEntry {
  key: string;
  kind: TimelineKind;
  /** Epoch milliseconds. */
  atMs: number;
  label: string;
  /** A second line: a log's level, a request's status and duration, a click's target. */
  detail?: string;
  /** Red in the list: console errors, failed requests, exceptions. */
  severe?: boolean;
  /** An exception's issue: /issues/:hash. */
  hash?: string;
}

// rrweb's EventType and IncrementalSource numbers (@rrweb/types); imported as values they would
// pull rrweb into this page's chunk, which must stay free of the player.
const META = 4;
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;
const CUSTOM = 5;
const PLUGIN = 6;
const MUTATION = 0;
const MOUSE_INTERACTION = 2;
const CLICK = 2;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
/** The first of the values that is a number (clients name the same field differently). */
const firstNumber = (...values: unknown[]): number | undefined =>
  values.find((value): value is number => typeof value === 'number');

/** A client's timestamp: epoch milliseconds or an ISO string. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

const timestampOf = (entry: Json) => instantOf(entry.timestamp ?? entry.time ?? entry.recordedAt ?? entry.at);

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function messageOf(entry: Json): string {
  const message = text(entry.message) ?? text(entry.msg) ?? text(entry.body);
  if (message) return message;
  const args = entry.args ?? entry.payload ?? entry.arguments;
  if (Array.isArray(args)) return args.map(stringify).join(' ');
  return stringify(entry);
}

const SEVERE_LEVELS = new Set(['error', 'fatal', 'assert']);

function logEntry(entry: Json, at: number, key: string): TimelineEntry {
  const level = (text(entry.level) ?? text(entry.severity) ?? 'log').toLowerCase();
  return {
    key,
    kind: 'log',
    atMs: at,
    label: messageOf(entry),
    detail: `console.${level}`,
    severe: SEVERE_LEVELS.has(level),
  };
}

function actionEntry(entry: Json, at: number, key: string): TimelineEntry {
  const type = (text(entry.type) ?? text(entry.category) ?? 'custom').toLowerCase();
  const url = text(entry.url) ?? text(entry.href) ?? text(entry.to);
  if (type === 'navigation' || type === 'navigate' || type === 'pageview') {
    return {
      key,
      kind: 'navigation',
      atMs: at,
      label: url ?? 'Navigation',
      ...(text(entry.from) ? { detail: `from ${text(entry.from)}` } : {}),
    };
  }
  if (type === 'network' || type === 'fetch' || type === 'xhr' || type === 'http' || type === 'request') {
    const status = firstNumber(entry.status, entry.statusCode);
    const duration = firstNumber(entry.durationMs, entry.duration);
    const method = text(entry.method)?.toUpperCase() ?? 'GET';
    const parts = [
      status === undefined ? (entry.error ? 'failed' : undefined) : String(status),
      duration === undefined ? undefined : `${Math.round(duration)} ms`,
    ].filter(Boolean);
    return {
      key,
      kind: 'network',
      atMs: at,
      label: `${method} ${url ?? ''}`.trim(),
      ...(parts.length > 0 ? { detail: parts.join(' · ') } : {}),
      severe: (status !== undefined && (status === 0 || status >= 400)) || Boolean(entry.error),
    };
  }
  if (type === 'click' || type === 'tap') {
    return {
      key,
      kind: 'click',
      atMs: at,
      label: text(entry.text) ?? text(entry.target) ?? text(entry.selector) ?? 'Click',
      ...(text(entry.text) && text(entry.target) ? { detail: text(entry.target) } : {}),
    };
  }
  const name = text(entry.name) ?? text(entry.message) ?? text(entry.tag) ?? type;
  return { key, kind: 'custom', atMs: at, label: name, detail: type === name ? 'custom' : type };
}

/** What a recorded node id was, from the snapshot and added nodes: `button#checkout "Checkout"`. */
function nodeNames(events: RecordedEvent[]): Map<number, string> {
  const names = new Map<number, string>();
  const visit = (node: unknown): string => {
    if (!isObject(node)) return '';
    const id = typeof node.id === 'number' ? node.id : undefined;
    if (node.type === 3) return text(node.textContent) ?? '';
    const children = Array.isArray(node.childNodes) ? node.childNodes : [];
    const inner = children.map(visit).join(' ').replace(/\s+/g, ' ').trim();
    if (node.type === 2 && id !== undefined) {
      const attributes = isObject(node.attributes) ? node.attributes : {};
      const tag = String(node.tagName ?? 'element');
      const idPart = text(attributes.id) ? `#${text(attributes.id)}` : '';
      const label = inner.length > 0 && inner.length <= 60 ? ` "${inner}"` : '';
      names.set(id, `${tag}${idPart}${label}`);
    }
    return inner;
  };
  for (const event of events) {
    if (event.type === FULL_SNAPSHOT && isObject(event.data)) visit(event.data.node);
    if (
      event.type === INCREMENTAL &&
      isObject(event.data) &&
      event.data.source === MUTATION &&
      Array.isArray(event.data.adds)
    ) {
      for (const add of event.data.adds) if (isObject(add)) visit(add.node);
    }
  }
  return names;
}

export function buildTimeline(
  recording: SessionRecording | undefined,
  exceptions: SessionException[],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const events = recording?.segments.flatMap((segment) => segment.events) ?? [];
  let sentLogs = 0;
  let sentClicks = 0;
  const sentNavigations: number[] = [];

  for (const segment of recording?.segments ?? []) {
    const logs = Array.isArray(segment.logs) ? segment.logs : [];
    logs.forEach((log, index) => {
      const at = isObject(log) ? timestampOf(log) : undefined;
      if (!isObject(log) || at === undefined) return;
      sentLogs++;
      entries.push(logEntry(log, at, `log-${segment.segmentIndex}-${index}`));
    });
    const actions = Array.isArray(segment.actions) ? segment.actions : [];
    actions.forEach((action, index) => {
      const at = isObject(action) ? timestampOf(action) : undefined;
      if (!isObject(action) || at === undefined) return;
      const entry = actionEntry(action, at, `action-${segment.segmentIndex}-${index}`);
      if (entry.kind === 'click') sentClicks++;
      if (entry.kind === 'navigation') sentNavigations.push(at);
      entries.push(entry);
    });
  }

  const names = sentClicks === 0 ? nodeNames(events) : new Map<number, string>();
  events.forEach((event, index) => {
    const data = isObject(event.data) ? event.data : {};
    const key = `event-${index}`;
    if (event.type === META && !sentNavigations.some((at) => Math.abs(at - event.timestamp) < 2000)) {
      entries.push({ key, kind: 'navigation', atMs: event.timestamp, label: text(data.href) ?? 'Page load' });
    } else if (event.type === CUSTOM) {
      entries.push({
        key,
        kind: 'custom',
        atMs: event.timestamp,
        label: text(data.tag) ?? 'Custom event',
        ...(data.payload === undefined ? {} : { detail: stringify(data.payload) }),
      });
    } else if (event.type === PLUGIN && sentLogs === 0 && data.plugin === 'rrweb/console@1' && isObject(data.payload)) {
      entries.push(logEntry({ level: data.payload.level, args: data.payload.payload }, event.timestamp, key));
    } else if (
      event.type === INCREMENTAL &&
      sentClicks === 0 &&
      data.source === MOUSE_INTERACTION &&
      data.type === CLICK
    ) {
      const target = typeof data.id === 'number' ? names.get(data.id) : undefined;
      entries.push({ key, kind: 'click', atMs: event.timestamp, label: target ?? 'Click' });
    }
  });

  exceptions.forEach((exception, index) => {
    const at = instantOf(exception.recordedAt);
    if (at === undefined) return;
    entries.push({
      key: `exception-${index}`,
      kind: 'exception',
      atMs: at,
      label: exception.title,
      detail: exception.isMessage ? 'message' : 'exception',
      severe: !exception.isMessage,
      hash: exception.hash,
    });
  });

  return entries.sort((a, b) => a.atMs - b.atMs);
}

/** The recording's events in time order, across segments (a re-sent segment may overlap). */
export function replayEvents(recording: SessionRecording): RecordedEvent[] {
  return recording.segments.flatMap((segment) => segment.events).sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * A moment or a length on the replay's clock as m:ss.s. The one rounding of the session page:
 * tenths of a second, half up, for the player's clock and length, the timeline's and the
 * exceptions' offsets, the URL's `t` and the header's duration, so they never disagree by a tenth.
 */
export function formatClock(ms: number): string {
  const tenths = Math.round(Math.abs(ms) / 100);
  const minutes = Math.floor(tenths / 600);
  return `${minutes}:${((tenths - minutes * 600) / 10).toFixed(1).padStart(4, '0')}`;
}

/** A duration rounded as the clock rounds it (tenths of a second). */
export const toClockTenths = (ms: number): number => Math.round(ms / 100) * 100;

/** rrweb's Custom event type: the replayer announces it and draws nothing. */
const END_MARKER_TYPE = CUSTOM;

/**
 * The recording as the player plays it: through the end of the session, not just its last
 * recorded event. An exception reported after the last DOM event (a click that throws) or a
 * session that went on quietly would otherwise lie past the player's end, and the player, the
 * timeline and the header would each give the session another length. When `endMs` (epoch) is
 * later than the last event, a Custom event marks it, so the player's clock runs to it.
 */
export function eventsThroughEnd(events: RecordedEvent[], endMs: number | undefined): RecordedEvent[] {
  const last = events.at(-1);
  if (!last || endMs === undefined || !Number.isFinite(endMs) || endMs <= last.timestamp) return events;
  return [...events, { type: END_MARKER_TYPE, data: { tag: 'sightline.session-end', payload: {} }, timestamp: endMs }];
}

/** The session's end (epoch ms): the latest of its recorded end, its last event and its last timeline entry. */
export function sessionEndMs(
  endedAt: string | null | undefined,
  events: readonly RecordedEvent[],
  entries: readonly TimelineEntry[],
): number | undefined {
  const candidates = [instantOf(endedAt), events.at(-1)?.timestamp, ...entries.map((entry) => entry.atMs)].filter(
    (value): value is number => value !== undefined && Number.isFinite(value),
  );
  return candidates.length === 0 ? undefined : Math.max(...candidates);
}
