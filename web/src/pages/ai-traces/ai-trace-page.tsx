/**
 * /ai-traces/:id: one LLM call — model, provider, operation, tokens, costs, finish reason, tool
 * calls, links to its trace — and its conversation, role by role, tool calls with their results.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ArrowLeft, CornerDownRight, Wrench } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { NotFoundState } from '@/components/ui/problem-states';
import { ApiError } from '@/lib/api';
import { api, read } from '@/lib/api';
import { formatCost, formatCount, formatDuration, formatPreciseTime } from '@/lib/format';
import { useTelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { AttributeRow } from '../logs/log-detail';
import { PageHeader } from '../page-header';
import { pairToolCalls, readConversation, type Part } from './conversation';
import { MarkdownText } from './markdown';
import type { AiTraceDetail } from './types';

const route = getRouteApi('/app/ai-traces/$id');

export function AiTracePage() {
  const { id } = route.useParams();
  const scope = useTelemetryScope();
  const trace = useQuery({
    queryKey: ['ai-trace', scope?.projectId, id],
    enabled: scope !== undefined,
    queryFn: () =>
      read<AiTraceDetail>(
        api.GET('/api/ai-traces/{id}', { params: { path: { id }, query: { projectId: scope!.projectId } } }),
      ),
  });
  const back = (
    <Link
      to="/ai-traces"
      className="inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-3.5" aria-hidden />
      AI traces
    </Link>
  );

  if (trace.error instanceof ApiError && trace.error.status === 404) return <NotFoundState kind="aiTrace" id={id} />;
  if (trace.error) {
    return (
      <div className="grid gap-3 px-6 py-5">
        {back}
        <ErrorState error={trace.error} />
      </div>
    );
  }
  const data = trace.data;
  return (
    <div className="grid gap-4 px-6 py-5">
      <div className="grid gap-1.5">
        {back}
        {data ? (
          <PageHeader
            title={data.name || 'AI call'}
            description={
              <span className="flex flex-wrap items-center gap-x-2">
                <span className="font-mono">{data.id}</span>
                <span>·</span>
                <span className="tabular">{formatPreciseTime(data.recordedAt)}</span>
                {data.isError && <span className="font-medium text-danger">· Error</span>}
              </span>
            }
          />
        ) : (
          <Skeleton className="h-10 w-96" />
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader title="Call" />
          {data ? <CallDetails trace={data} /> : <GridSkeleton rows={7} />}
        </Card>
        <Card>
          <CardHeader title="Tokens and cost" />
          {data ? <Usage trace={data} /> : <GridSkeleton rows={4} />}
        </Card>
      </div>
      <Card>
        <CardHeader
          title="Conversation"
          description="The prompt and the completion as the instrumentation recorded them."
        />
        {data ? <Conversation document={data.conversation} /> : <GridSkeleton rows={5} />}
      </Card>
      {data && Object.keys(data.attributes).length > 0 && <Attributes values={data.attributes} />}
    </div>
  );
}

function GridSkeleton({ rows }: { rows: number }) {
  return (
    <div className="grid gap-2 px-4 py-3" role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-4" />
      ))}
    </div>
  );
}

function Row({ label, children, oneLine }: { label: string; children: ReactNode; oneLine?: string }) {
  return (
    <>
      {/* On a phone a label stands above its value, which gets the card's whole width. */}
      <dt className="text-muted-foreground max-sm:mt-2 max-sm:text-xs max-sm:first:mt-0">{label}</dt>
      {/* `oneLine`: the value is kept on one line, cut if it must be, whole in the tooltip. */}
      <dd className={cn('min-w-0', oneLine ? 'truncate' : 'break-words')} title={oneLine}>
        {children}
      </dd>
    </>
  );
}

function CallDetails({ trace }: { trace: AiTraceDetail }) {
  const dash = <span className="text-muted-foreground">—</span>;
  return (
    <dl
      className="grid gap-x-6 px-4 py-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-y-1.5"
      aria-label="Call details"
    >
      {/* A model name broke at its hyphens beside the labels on a phone. */}
      <Row label="Model" oneLine={trace.model || undefined}>
        {trace.model ? <span className="font-mono">{trace.model}</span> : dash}
      </Row>
      <Row label="Provider">{trace.provider || dash}</Row>
      <Row label="Operation">{trace.operation || dash}</Row>
      <Row label="Latency">
        <span className="font-mono">{formatDuration(trace.durationMs)}</span>
      </Row>
      <Row label="Finish reason">
        {trace.finishReason ? <span className="font-mono">{trace.finishReason}</span> : dash}
      </Row>
      <Row label="Tool calls">
        <span className="tabular">{formatCount(trace.toolCalls)}</span>
      </Row>
      <Row label="Status">{trace.isError ? <span className="font-medium text-danger">Error</span> : 'OK'}</Row>
      {trace.conversationId && (
        <Row label="Conversation id">
          <span className="font-mono">{trace.conversationId}</span>
        </Row>
      )}
      <Row label="Span waterfall">
        <Link to="/traces/$id" params={{ id: trace.id }} className={linkStyles.id}>
          {trace.id}
        </Link>
      </Row>
      {trace.distributedTraceId && (
        <>
          {/* A root LLM call is its own trace: the row above already links it. */}
          {trace.distributedTraceId !== trace.id && (
            <Row label="Enclosing trace">
              <Link to="/traces/$id" params={{ id: trace.distributedTraceId }} className={linkStyles.id}>
                {trace.distributedTraceId}
              </Link>
            </Row>
          )}
          <Row label="Across services">
            <span className="flex flex-wrap gap-x-4">
              <Link
                to="/distributed-traces/$id"
                params={{ id: trace.distributedTraceId }}
                className={linkStyles.accent}
              >
                Distributed trace
              </Link>
              <Link to="/logs" search={{ traceId: trace.distributedTraceId }} className={linkStyles.accent}>
                Logs of this trace
              </Link>
            </span>
          </Row>
        </>
      )}
    </dl>
  );
}

function Usage({ trace }: { trace: AiTraceDetail }) {
  const tokens: Array<[string, string]> = [
    ['Input tokens', formatCount(trace.inputTokens)],
    ['Output tokens', formatCount(trace.outputTokens)],
    ['Cached input tokens', formatCount(trace.cachedTokens)],
    ['Reasoning tokens', formatCount(trace.reasoningTokens)],
  ];
  // A call that reported its total cost only (gen_ai.usage.cost) is stored with zero parts: they
  // are unknown, not $0.00 beside a total.
  const partsUnknown = trace.inputCost === 0 && trace.outputCost === 0 && trace.totalCost > 0;
  const costs: Array<[string, string]> = [
    ['Input cost', partsUnknown ? '—' : formatCost(trace.inputCost)],
    ['Output cost', partsUnknown ? '—' : formatCost(trace.outputCost)],
    ['Total cost', formatCost(trace.totalCost)],
  ];
  return (
    <div aria-label="Tokens and cost" role="group" className="divide-y px-4 text-sm">
      {[tokens, costs].map((figures, group) => (
        <dl key={group} className="grid grid-cols-[1fr_max-content] gap-x-6 gap-y-1.5 py-3">
          {figures.map(([label, value]) => (
            <div key={label} className={cn('contents', label === 'Total cost' && 'font-semibold')}>
              <dt className={cn(label !== 'Total cost' && 'text-muted-foreground')}>{label}</dt>
              <dd
                // An unknown part's "—" in the text face: a monospace "—" reads as "–", a dash, not "no value".
                className={cn(
                  'text-right tabular',
                  value !== '—' && 'font-mono',
                  value === '—' && 'text-muted-foreground',
                )}
                data-figure={label}
                title={
                  partsUnknown && label !== 'Total cost' && group === 1
                    ? 'The call reported its total cost only'
                    : undefined
                }
              >
                {value}
              </dd>
            </div>
          ))}
        </dl>
      ))}
    </div>
  );
}

const ROLE_STYLE: Record<string, string> = {
  system: 'text-muted-foreground',
  user: 'text-foreground',
  assistant: 'text-accent',
  tool: 'text-muted-foreground',
};

function Conversation({ document }: { document: unknown }) {
  const messages = readConversation(document);
  if (messages.length === 0) {
    return (
      <EmptyState title="No conversation was recorded for this call">
        Instrumentations record messages only when content capture is on (for example{' '}
        {/* Broken where it must: in one piece it is wider than a phone, and the page scrolled sideways. */}
        <code className="font-mono text-xs wrap-anywhere">OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true</code>
        ).
      </EmptyState>
    );
  }
  const { results, paired } = pairToolCalls(messages);
  return (
    <ol className="divide-y" aria-label="Messages">
      {messages.map((message, index) => {
        const parts = message.parts.filter(
          (part) => !(part.kind === 'tool_result' && part.id !== undefined && paired.has(part.id)),
        );
        // A tool message whose only result sits under its call is not shown twice.
        if (parts.length === 0 && message.parts.length > 0) return null;
        return (
          <li
            key={index}
            className="grid grid-cols-[6rem_1fr] gap-3 px-4 py-3 max-md:grid-cols-1"
            data-role={message.role}
          >
            <div className="grid content-start gap-0.5">
              <span
                className={cn(
                  'text-xs font-semibold tracking-wide uppercase',
                  ROLE_STYLE[message.role] ?? 'text-foreground',
                )}
              >
                {message.role}
              </span>
              {message.finishReason && (
                <span className="font-mono text-[11px] text-muted-foreground">{message.finishReason}</span>
              )}
            </div>
            <div className="grid min-w-0 gap-2">
              {parts.length === 0 ? (
                <span className="text-sm text-muted-foreground">(empty)</span>
              ) : (
                parts.map((part, i) => <PartView key={i} part={part} results={results} />)
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function PartView({ part, results }: { part: Part; results: Map<string, string> }) {
  switch (part.kind) {
    case 'text':
      return (
        <Folded length={part.text.length}>
          <MarkdownText text={part.text} />
        </Folded>
      );
    case 'reasoning':
      return (
        <Folded length={part.text.length}>
          <div className="border-l-2 pl-3 text-muted-foreground italic">
            <MarkdownText text={part.text} />
          </div>
        </Folded>
      );
    case 'data':
      return <CodeText text={part.text} />;
    case 'tool_result':
      return (
        <div className="grid gap-1">
          <span className="text-xs text-muted-foreground">
            Result{part.id && <span className="font-mono"> of {part.id}</span>}
          </span>
          <CodeText text={part.content} />
        </div>
      );
    case 'tool_call': {
      const result = part.id !== undefined ? results.get(part.id) : undefined;
      return (
        <div className="grid gap-1.5 rounded-md border bg-muted/40 px-3 py-2" data-tool-call={part.name}>
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <Wrench className="size-3.5 text-muted-foreground" aria-hidden />
            <span className="font-mono font-medium">{part.name}</span>
            {part.id && <span className="font-mono text-muted-foreground">{part.id}</span>}
          </div>
          {part.arguments && <CodeText text={part.arguments} />}
          {result !== undefined ? (
            <div className="grid gap-1" data-tool-result>
              <span className="flex items-center gap-1 text-xs text-muted-foreground">
                <CornerDownRight className="size-3.5" aria-hidden />
                Result
              </span>
              <CodeText text={result} />
            </div>
          ) : (
            <span className="text-xs text-muted-foreground">No result recorded in this call.</span>
          )}
        </div>
      );
    }
  }
}

/** Tool arguments and results: pretty JSON when they are JSON, monospace either way, folded when long. */
function CodeText({ text }: { text: string }) {
  let shown = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) shown = JSON.stringify(parsed, null, 2);
  } catch {
    /* not JSON: shown as it is */
  }
  return (
    <Folded length={shown.length} lines={shown.split('\n').length}>
      <pre className="overflow-x-auto rounded-md border bg-panel px-3 py-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap">
        {shown}
      </pre>
    </Folded>
  );
}

const FOLD_CHARS = 1_500;
const FOLD_LINES = 24;

/** Long content shows its first screenful until "Show more". */
function Folded({ length, lines = 0, children }: { length: number; lines?: number; children: ReactNode }) {
  const long = length > FOLD_CHARS || lines > FOLD_LINES;
  const [open, setOpen] = useState(false);
  if (!long) return <>{children}</>;
  return (
    <div className="grid gap-1">
      <div className={cn(!open && 'relative max-h-64 overflow-hidden')} data-folded={open ? undefined : ''}>
        {children}
        {!open && (
          <div
            className="pointer-events-none absolute inset-x-0 bottom-0 h-12 bg-gradient-to-t from-panel"
            aria-hidden
          />
        )}
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="justify-self-start text-accent"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        {open ? 'Show less' : `Show more (${length.toLocaleString()} characters)`}
      </Button>
    </div>
  );
}

function Attributes({ values }: { values: Record<string, string> }) {
  const entries = Object.entries(values).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Card>
      <details>
        <summary className="cursor-pointer px-4 py-3 text-sm font-semibold">
          Span attributes <span className="font-normal text-muted-foreground tabular">({entries.length})</span>
        </summary>
        <table className="w-full table-fixed border-t text-xs">
          <tbody>
            {entries.map(([key, value]) => (
              <AttributeRow key={key} name={key} value={value} className="px-4" nameWidth="w-1/3" />
            ))}
          </tbody>
        </table>
      </details>
    </Card>
  );
}
