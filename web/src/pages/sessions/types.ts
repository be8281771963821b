/**
 * Answers of the sessions routes (src/api/telemetry/sessions.ts, store/telemetry/queries/sessions.ts).
 * The list and detail declare schemas, so their types are the generated ones; the recording is a
 * stream the OpenAPI document types as a string, and its logs/actions are whatever the browser
 * client sent: typed by hand here and read defensively (timeline.ts).
 */
// Relative, with .js: the browser suite imports this file under the server's module resolution.
import type { Answer } from '../../lib/types.js';

/** POST /api/sessions (declares its schema: the generated type). */
export type SessionList = Answer<'/api/sessions', 'post'>;
export type SessionItem = SessionList['items'][number];

/** GET /api/sessions/:id, with the exceptions linking to /issues/:hash. */
export type SessionDetail = Answer<'/api/sessions/{id}', 'get'>;
export type SessionException = SessionDetail['exceptions'][number];

/** One rrweb event as recorded (`eventWithTime`): the player validates the rest. */
export interface RecordedEvent {
  type: number;
  data: unknown;
  timestamp: number;
  delay?: number;
}

/** GET /api/sessions/:id/recording: the segments in segmentIndex order. */
export interface SessionRecording {
  sessionId: string;
  segments: Array<{
    segmentIndex: number;
    exceptionId: string | null;
    startedAt: string | null;
    endedAt: string | null;
    /** Console entries the client captured in the segment's window (client-defined objects). */
    logs: unknown;
    /** Network, navigation, click and custom breadcrumbs (client-defined objects). */
    actions: unknown;
    events: RecordedEvent[];
    /** The stored events of this segment could not be read (damaged or expired): events is []. */
    unreadable?: boolean;
  }>;
}
