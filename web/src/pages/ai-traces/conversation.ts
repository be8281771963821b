/**
 * The stored conversation (`{system?, input: [...], output: [...]}`, src/core/classify/
 * conversation.ts) keeps each message in its source's shape: GenAI 1.37 messages with `parts`,
 * OpenAI-shaped `{role, content, tool_calls, tool_call_id}`, indexed attributes turned into the
 * same, and `gen_ai.choice` events wrapping a `message`. This reads all of them into one list of
 * role-labelled messages whose parts are text, tool calls or tool results, and pairs each call
 * with its result by id.
 */

export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool_call'; id: string | undefined; name: string; arguments: string }
  | { kind: 'tool_result'; id: string | undefined; content: string }
  | { kind: 'data'; text: string };

export interface Message {
  role: string;
  parts: Part[];
  finishReason?: string;
  /** Which side of the call it was sent on: the prompt (input) or the completion (output). */
  side: 'system' | 'input' | 'output';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** A value shown as text: strings as they are, anything else as indented JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, null, 2);
}

function partOf(part: unknown): Part[] {
  if (typeof part === 'string') return [{ kind: 'text', text: part }];
  if (!isObject(part)) return part === undefined || part === null ? [] : [{ kind: 'data', text: asText(part) }];
  const type = str(part.type);
  if (type === 'text' || (type === undefined && (typeof part.content === 'string' || typeof part.text === 'string'))) {
    return [{ kind: 'text', text: str(part.content) ?? str(part.text) ?? '' }];
  }
  if (type === 'reasoning' || type === 'thinking')
    return [{ kind: 'reasoning', text: str(part.content) ?? str(part.thinking) ?? str(part.text) ?? asText(part) }];
  if (type === 'tool_call' || type === 'tool_use' || type === 'function') return [toolCallOf(part)];
  if (type === 'tool_call_response' || type === 'tool_result') {
    return [
      {
        kind: 'tool_result',
        id: str(part.id) ?? str(part.tool_use_id) ?? str(part.tool_call_id),
        content: asText(part.response ?? part.result ?? part.content),
      },
    ];
  }
  return [{ kind: 'data', text: asText(part) }];
}

function toolCallOf(call: Record<string, unknown>): Part {
  const fn = isObject(call.function) ? call.function : call;
  return {
    kind: 'tool_call',
    id: str(call.id) ?? str(call.tool_call_id),
    name: str(fn.name) ?? 'tool',
    arguments: asText(fn.arguments ?? fn.input ?? call.arguments ?? call.input),
  };
}

function messageOf(raw: unknown, side: 'input' | 'output'): Message {
  const fallbackRole = side === 'input' ? 'user' : 'assistant';
  if (!isObject(raw)) return { role: fallbackRole, side, parts: partOf(raw) };
  // gen_ai.choice events: {index, finish_reason, message: {...}}
  const inner = isObject(raw.message)
    ? { ...raw.message, finish_reason: raw.finish_reason ?? raw.message.finish_reason }
    : raw;
  const role = str(inner.role) ?? fallbackRole;
  const parts: Part[] = [];
  if (Array.isArray(inner.parts)) parts.push(...inner.parts.flatMap(partOf));
  const content = inner.content;
  const toolCallId = str(inner.tool_call_id) ?? str(inner.id);
  if (role === 'tool' && content !== undefined && !Array.isArray(inner.parts))
    parts.push({ kind: 'tool_result', id: toolCallId, content: asText(content) });
  else if (Array.isArray(content)) parts.push(...content.flatMap(partOf));
  else if (content !== undefined && content !== null && content !== '')
    parts.push(typeof content === 'string' ? { kind: 'text', text: content } : { kind: 'data', text: asText(content) });
  if (Array.isArray(inner.tool_calls)) parts.push(...inner.tool_calls.filter(isObject).map(toolCallOf));
  const finishReason = str(inner.finish_reason);
  return { role, side, parts, ...(finishReason ? { finishReason } : {}) };
}

/** The stored document as messages in order: system, then input, then output. */
export function readConversation(document: unknown): Message[] {
  if (!isObject(document)) return [];
  const messages: Message[] = [];
  if (document.system !== undefined && document.system !== null) {
    const system = document.system;
    const parts = Array.isArray(system)
      ? system.flatMap(partOf)
      : isObject(system)
        ? messageOf(system, 'input').parts
        : partOf(system);
    messages.push({ role: 'system', side: 'system', parts });
  }
  if (Array.isArray(document.input)) messages.push(...document.input.map((m) => messageOf(m, 'input')));
  if (Array.isArray(document.output)) messages.push(...document.output.map((m) => messageOf(m, 'output')));
  return messages;
}

/**
 * Tool results keyed by the id of the call they answer, and the ids that have a call to sit
 * under: those results are shown with their call, not again on their own.
 */
export function pairToolCalls(messages: readonly Message[]): { results: Map<string, string>; paired: Set<string> } {
  const calls = new Set<string>();
  const results = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.kind === 'tool_call' && part.id) calls.add(part.id);
      if (part.kind === 'tool_result' && part.id && !results.has(part.id)) results.set(part.id, part.content);
    }
  }
  const paired = new Set([...results.keys()].filter((id) => calls.has(id)));
  return { results, paired };
}
