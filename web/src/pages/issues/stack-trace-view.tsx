/**
 * A stack trace as frames: the app's own frames in full, each run of library frames folded behind
 * "show N library frames", and the text as received one click away (the raw, pre-symbolication
 * trace when the service symbolicated it).
 */
import { ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { cn } from '@/lib/utils';
import {
  parseStackTrace,
  stackBlocks,
  type MappedFrameInfo,
  type StackEntry,
  type StackFrame,
} from '@sightline/stack-frames';

/** The original source around a mapped frame, its own line marked. */
function SourceContext({ info }: { info: MappedFrameInfo }) {
  const context = info.context;
  if (!context) return null;
  return (
    <ol
      aria-label={`Source of ${info.source} around line ${info.lineNumber}`}
      className="mt-1 overflow-x-auto rounded border bg-muted/40 py-1 font-mono text-xs leading-5"
    >
      {context.lines.map((text, index) => {
        const number = context.start + index;
        const current = number === info.lineNumber;
        return (
          <li
            key={number}
            aria-current={current ? 'location' : undefined}
            className={cn(
              'flex gap-3 px-2 whitespace-pre',
              current ? 'bg-accent-soft font-semibold text-foreground' : 'text-muted-foreground',
            )}
          >
            <span className="w-8 shrink-0 text-right select-none">{number}</span>
            <span>{text}</span>
          </li>
        );
      })}
    </ol>
  );
}

function FrameRow({ frame }: { frame: StackFrame }) {
  const location =
    frame.file === null
      ? null
      : `${frame.file}${frame.line === null ? '' : `:${frame.line}`}${frame.column === null ? '' : `:${frame.column}`}`;
  return (
    <li
      data-frame={frame.inApp ? 'app' : 'library'}
      data-mapped={frame.mapped ? 'true' : undefined}
      className={cn(
        'grid gap-0.5 border-l-2 px-3 py-1.5',
        frame.inApp ? 'border-accent bg-accent-soft/40' : 'border-transparent text-muted-foreground',
      )}
    >
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 font-mono text-xs">
        <span className={cn('break-all', frame.inApp && 'font-semibold text-foreground')}>
          {frame.function ?? '(anonymous)'}
        </span>
        {location && <span className="break-all text-muted-foreground">{location}</span>}
        {frame.mapped && (
          <span
            title="Mapped to the original source through an uploaded source map"
            className="rounded border border-success/50 bg-success/10 px-1 font-sans text-[11px] font-medium text-foreground"
          >
            source map
          </span>
        )}
      </div>
      {frame.source && <code className="font-mono text-xs text-muted-foreground">{frame.source}</code>}
      {frame.mapped && <SourceContext info={frame.mapped} />}
    </li>
  );
}

function TextRow({ entry }: { entry: Extract<StackEntry, { kind: 'text' }> }) {
  return (
    <li className="px-3 py-1 font-mono text-xs break-all whitespace-pre-wrap text-muted-foreground">
      {entry.text.trim()}
    </li>
  );
}

function LibraryRun({ frames }: { frames: StackFrame[] }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        className="flex w-full items-center gap-1 px-3 py-1 text-left text-xs text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronRight className={cn('size-3.5 transition-transform', open && 'rotate-90')} aria-hidden />
        {open ? 'Hide' : 'Show'} {frames.length} library {frames.length === 1 ? 'frame' : 'frames'}
      </button>
      {open && (
        <ul>
          {frames.map((frame, index) => (
            <FrameRow key={index} frame={frame} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** `mapped`: the frames the service mapped through source maps, by trace line (mappedFramesOf). */
export function StackTraceView({ text, mapped }: { text: string; mapped?: ReadonlyMap<number, MappedFrameInfo> }) {
  const parsed = useMemo(() => parseStackTrace(text, mapped), [text, mapped]);
  const blocks = useMemo(() => stackBlocks(parsed.entries.slice(1)), [parsed]);
  if (parsed.frameCount === 0) {
    return <pre className="overflow-x-auto px-4 py-3 font-mono text-xs leading-5 whitespace-pre-wrap">{text}</pre>;
  }
  return (
    <ul aria-label="Stack frames" className="grid py-1">
      {blocks.map((block, index) =>
        block.kind === 'library' ? (
          <LibraryRun key={index} frames={block.frames} />
        ) : block.entry.kind === 'frame' ? (
          <FrameRow key={index} frame={block.entry.frame} />
        ) : (
          <TextRow key={index} entry={block.entry} />
        ),
      )}
    </ul>
  );
}
