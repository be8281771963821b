/**
 * A stack trace as frames: the app's own frames in full, each run of library frames folded behind
 * "show N library frames", and the text as received one click away (the raw, pre-symbolication
 * trace when the service symbolicated it).
 */
import { ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { cn } from '@/lib/utils';
import { parseStackTrace, stackBlocks, type StackEntry, type StackFrame } from './stack-frames';

function FrameRow({ frame }: { frame: StackFrame }) {
  const location = frame.file === null ? null : `${frame.file}${frame.line === null ? '' : `:${frame.line}`}${frame.column === null ? '' : `:${frame.column}`}`;
  return (
    <li data-frame={frame.inApp ? 'app' : 'library'} className={cn('grid gap-0.5 border-l-2 px-3 py-1.5', frame.inApp ? 'border-accent bg-accent-soft/40' : 'border-transparent text-muted-foreground')}>
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 font-mono text-xs">
        <span className={cn('break-all', frame.inApp && 'font-semibold text-foreground')}>{frame.function ?? '(anonymous)'}</span>
        {location && <span className="break-all text-muted-foreground">{location}</span>}
      </div>
      {frame.source && <code className="font-mono text-xs text-muted-foreground">{frame.source}</code>}
    </li>
  );
}

function TextRow({ entry }: { entry: Extract<StackEntry, { kind: 'text' }> }) {
  return <li className="px-3 py-1 font-mono text-xs break-all whitespace-pre-wrap text-muted-foreground">{entry.text.trim()}</li>;
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

export function StackTraceView({ text }: { text: string }) {
  const parsed = useMemo(() => parseStackTrace(text), [text]);
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
