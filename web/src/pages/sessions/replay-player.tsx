/**
 * The rrweb replay: rrweb-player (and its CSS) live in this module only, which the session page
 * and the issue page's replay card import lazily (lazy-replay-player.tsx), so no page downloads
 * the player before it shows a replay. The player's own controller
 * is hidden: these controls (play/pause, seek bar, speed, skip inactivity) follow the dashboard's
 * look in both themes and are labelled for keyboards and screen readers.
 */
import Player from 'rrweb-player';
import 'rrweb-player/dist/style.css';
import './replay-player.css';
import { FastForward, Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { formatClock } from './timeline';
import type { RecordedEvent } from './types';

export interface ReplayControls {
  /** Shows the replay at `offsetMs` after the first event, keeping it playing if it was. */
  seek(offsetMs: number): void;
}

const SPEEDS = [1, 2, 4, 8] as const;
const MAX_HEIGHT = 560;
const noop = () => {};

type PlayerEvents = ConstructorParameters<typeof Player>[0]['props']['events'];

/** m:ss.s on the replay's clock, rounded as the URL's `t` and the timeline's offsets are. */
const formatReplayTime = (ms: number) => formatClock(Math.max(0, ms));

export function ReplayPlayer({
  events,
  initialOffsetMs,
  onReady = noop,
  onTime = noop,
  onSettle = noop,
  maxHeight = MAX_HEIGHT,
}: {
  events: RecordedEvent[];
  initialOffsetMs: number;
  onReady?: (controls: ReplayControls) => void;
  /** The current time, while playing and after each seek. */
  onTime?: (offsetMs: number) => void;
  /** The time where the replay came to rest (paused, seeked with the bar, finished): the URL's `t`. */
  onSettle?: (offsetMs: number) => void;
  /** The stage's tallest height in pixels: a card embedding the replay keeps it smaller than the session page. */
  maxHeight?: number;
}) {
  const stage = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const [current, setCurrent] = useState(initialOffsetMs);
  const [total, setTotal] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const [skipInactive, setSkipInactive] = useState(true);
  const [skipping, setSkipping] = useState(false);
  const callbacks = useRef({ onReady, onTime, onSettle });
  callbacks.current = { onReady, onTime, onSettle };
  const latest = useRef({ current: initialOffsetMs, playing: false });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the player is built once per recording; callbacks are read through a ref
  useEffect(() => {
    const target = stage.current;
    if (!target) return;
    const meta = events.find((event) => event.type === 4)?.data;
    const recorded =
      typeof meta === 'object' && meta !== null && 'width' in meta && 'height' in meta
        ? { width: Number(meta.width), height: Number(meta.height) }
        : { width: 1280, height: 720 };
    const sizeFor = (width: number) => ({
      width,
      height: Math.min(maxHeight, Math.round((width * recorded.height) / Math.max(1, recorded.width))),
    });
    const instance = new Player({
      target,
      props: {
        // The recording is what the browser's rrweb recorder emitted, stored as it arrived; the
        // replayer reads it by its `type` and ignores what it does not know, like any rrweb player.
        events: events as unknown as PlayerEvents,
        ...sizeFor(target.clientWidth),
        autoPlay: false,
        showController: false,
        skipInactive: true,
        mouseTail: false,
        speedOption: [...SPEEDS],
      },
    });
    player.current = instance;
    // The replayer's iframe has no name of its own; screen readers announce this one.
    instance.getReplayer().iframe.title = 'Session replay';
    setTotal(instance.getMetaData().totalTime);
    instance.addEventListener('ui-update-current-time', (detail) => {
      const time = payloadOf(detail);
      if (typeof time !== 'number') return;
      latest.current.current = time;
      setCurrent(time);
      callbacks.current.onTime(time);
    });
    instance.addEventListener('ui-update-player-state', (detail) => {
      const state = payloadOf(detail);
      const isPlaying = state === 'playing';
      if (latest.current.playing && !isPlaying) callbacks.current.onSettle(latest.current.current);
      latest.current.playing = isPlaying;
      setPlaying(isPlaying);
    });
    instance.getReplayer().on('state-change', (states) => {
      const speedState = typeof states === 'object' && states !== null && 'speed' in states ? states.speed : undefined;
      if (typeof speedState === 'object' && speedState !== null && 'value' in speedState)
        setSkipping(speedState.value === 'skipping');
    });
    if (initialOffsetMs > 0) instance.goto(initialOffsetMs, false);
    callbacks.current.onReady({
      seek(offsetMs) {
        // Not capped at the last event: an error reported after it must still show everything before it.
        instance.goto(Math.max(0, offsetMs));
      },
    });

    const svelte = svelteLifecycle(instance);
    const resize = new ResizeObserver(() => {
      svelte?.$set(sizeFor(target.clientWidth));
      instance.triggerResize();
    });
    resize.observe(target);
    return () => {
      resize.disconnect();
      instance.pause();
      svelte?.$destroy();
      player.current = null;
    };
    // The player is built once per recording; the initial offset only matters then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [events]);

  const seekWithBar = (offsetMs: number) => {
    player.current?.goto(offsetMs);
    if (!latest.current.playing) callbacks.current.onSettle(offsetMs);
  };

  return (
    <div className="session-replay grid">
      <div ref={stage} className="min-h-40 w-full overflow-hidden bg-muted" data-testid="replay-stage" />
      <div className="flex flex-wrap items-center gap-3 border-t px-3 py-2">
        <Button
          variant="primary"
          size="icon"
          aria-label={playing ? 'Pause' : 'Play'}
          onClick={() => (playing ? player.current?.pause() : player.current?.play())}
        >
          {playing ? <Pause /> : <Play />}
        </Button>
        <span className="font-mono text-xs tabular" data-testid="replay-time">
          {formatReplayTime(current)}{' '}
          <span className="text-muted-foreground">
            {/* A moment after the last recorded event (an error reported later): the replay shows the end. */}
            {total > 0 && current > total
              ? `· past the end (${formatReplayTime(total)})`
              : `/ ${formatReplayTime(total)}`}
          </span>
        </span>
        <input
          type="range"
          aria-label="Seek"
          min={0}
          max={Math.max(1, Math.round(total))}
          step={100}
          value={Math.round(current)}
          onChange={(event) => seekWithBar(Number(event.target.value))}
          className="h-1.5 min-w-40 flex-1 cursor-pointer accent-[var(--accent)]"
        />
        <div role="group" aria-label="Speed" className="flex items-center rounded-md border">
          {SPEEDS.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={speed === option}
              onClick={() => {
                player.current?.setSpeed(option);
                setSpeed(option);
              }}
              className={cn(
                'h-7 px-2 font-mono text-xs outline-none first:rounded-l-md last:rounded-r-md focus-visible:ring-2 focus-visible:ring-ring',
                speed === option
                  ? 'bg-accent text-accent-foreground'
                  : 'text-muted-foreground hover:bg-muted hover:text-foreground',
              )}
            >
              {option}×
            </button>
          ))}
        </div>
        <label className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <input
            type="checkbox"
            checked={skipInactive}
            onChange={() => {
              player.current?.toggleSkipInactive();
              setSkipInactive((value) => !value);
            }}
            className="accent-[var(--accent)]"
          />
          Skip inactivity
        </label>
        {skipping && (
          <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" role="status">
            <FastForward className="size-3.5" aria-hidden /> Skipping inactivity
          </span>
        )}
      </div>
    </div>
  );
}

/** The `{payload}` the player's UI events carry. */
function payloadOf(detail: unknown): unknown {
  return typeof detail === 'object' && detail !== null && 'payload' in detail ? detail.payload : undefined;
}

/**
 * The Svelte component methods of the player ($set, $destroy): its typings name them through
 * Svelte's own types, which the dashboard does not install, so they are checked here instead.
 */
interface SvelteLifecycle {
  $set(props: { width: number; height: number }): void;
  $destroy(): void;
}

function svelteLifecycle(component: object): SvelteLifecycle | undefined {
  if (!('$set' in component) || !('$destroy' in component)) return undefined;
  const { $set, $destroy } = component;
  if (typeof $set !== 'function' || typeof $destroy !== 'function') return undefined;
  return { $set: (props) => void $set.call(component, props), $destroy: () => void $destroy.call(component) };
}
