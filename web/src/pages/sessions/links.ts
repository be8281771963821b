/**
 * Links into a session's replay, for any page that knows a session id (an issue's occurrence, a
 * log line): `<Link {...sessionReplayLink(sessionId, occurrence.recordedAt)}>Watch replay</Link>`.
 * The moment travels as `?at=<ISO time>`; the replay page turns it into its own `?t=<seconds>`
 * against the recording's first event, which only it knows, so callers need no session start.
 */
export function sessionReplayLink(sessionId: string, atIso?: string | null) {
  return {
    to: '/sessions/$id',
    params: { id: sessionId },
    search: atIso ? { at: atIso } : {},
  } as const;
}

/** Seconds into the replay, as `?t=` holds them: one decimal is a frame a person can find. */
export function secondsParam(offsetMs: number): number {
  return Math.max(0, Math.round(offsetMs / 100) / 10);
}
