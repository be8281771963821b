/**
 * A session and its recording as the replay plays them, for every page that shows a replay (the
 * session page, the issue page's replay card). One pair of query keys, so a card's session opens
 * on its own page from the cache; the player itself stays in its lazy chunk (replay-player.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, read } from '@/lib/api';
import { buildTimeline, eventsThroughEnd, instantOf, replayEvents, sessionEndMs } from './timeline';
import { sessionQuery } from './queries';
import type { SessionRecording } from './types';

export function useSessionReplay(
  projectId: string | undefined,
  id: string,
  /** The caller already knows the session has a recording (an occurrence's hasRecording): read both at once. */
  recordedHint = false,
) {
  const session = useQuery(sessionQuery(projectId, id));
  const recorded = (session.data?.recordingSegments ?? 0) > 0 || (recordedHint && session.data === undefined);
  const recording = useQuery({
    queryKey: ['session-recording', projectId, id],
    enabled: projectId !== undefined && recorded,
    // A closed segment never changes; a re-sent one is picked up on the next visit.
    staleTime: Infinity,
    queryFn: () =>
      read<SessionRecording>(
        api.GET('/api/sessions/{id}/recording', { params: { path: { id }, query: { projectId: projectId! } } }),
      ),
  });

  const events = useMemo(() => (recording.data ? replayEvents(recording.data) : []), [recording.data]);
  const timeline = useMemo(
    () => buildTimeline(recording.data, session.data?.exceptions ?? []),
    [recording.data, session.data?.exceptions],
  );
  // The player plays through the session's end (its last event, entry or recorded end), so its
  // length, the timeline's offsets and the header's duration are one.
  const endedAt = session.data?.endedAt;
  const played = useMemo(
    () => eventsThroughEnd(events, sessionEndMs(endedAt, events, timeline)),
    [events, endedAt, timeline],
  );
  // The replay's clock starts at the first recorded event; without one, at the session's start.
  const startMs = events[0]?.timestamp ?? instantOf(session.data?.startedAt) ?? 0;

  const unreadableSegments = recording.data?.segments.filter((segment) => segment.unreadable).length ?? 0;

  return { session, recording, recorded, events, timeline, played, startMs, unreadableSegments };
}
