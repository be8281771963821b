/**
 * The prompt and completion of an LLM call, gathered from the places GenAI instrumentations put
 * them, into one JSON document `{ system?, input: [...], output: [...] }` kept in the object store.
 * Messages are kept in the shape their source used; only plain-text sources are wrapped as
 * `{ role, content }`.
 *
 * Sources, in the order they are read (later ones append):
 * - attributes `gen_ai.system_instructions`, `gen_ai.input.messages`, `gen_ai.output.messages`
 *   (semantic conventions 1.37+; JSON strings or structured values);
 * - attributes `gen_ai.prompt` / `gen_ai.completion` (one string or a JSON message array);
 * - indexed attributes `gen_ai.prompt.<i>.<field>` and `gen_ai.completion.<i>.<field>`, including
 *   nested `tool_calls.<j>.<field>` (OpenLLMetry and other pre-1.37 instrumentations);
 * - span events `gen_ai.{system,user,assistant,tool}.message` (input) and `gen_ai.choice`
 *   (output), `gen_ai.content.prompt` / `gen_ai.content.completion` (carrying the attributes
 *   above), and `gen_ai.client.inference.operation.details` (carrying the 1.37 attributes).
 */
import { anyValueToJson, setOwn } from './attributes.js';
import type { AnyValue, KeyValue, OtlpSpan } from './otlp-model.js';

export interface Conversation {
  system?: unknown;
  input: unknown[];
  output: unknown[];
}

type Side = 'input' | 'output';

const DEFAULT_ROLE: Record<Side, string> = { input: 'user', output: 'assistant' };
const INDEXED_MESSAGE_KEY = /^gen_ai\.(prompt|completion)\.(\d+)\.(.+)$/;
/** Deeper indexed keys are ignored: they are not messages, and unbounded depth means unbounded recursion. */
const MAX_INDEXED_KEY_DEPTH = 6;
const MESSAGE_EVENT_ROLES = new Map([
  ['gen_ai.system.message', 'system'],
  ['gen_ai.user.message', 'user'],
  ['gen_ai.assistant.message', 'assistant'],
  ['gen_ai.tool.message', 'tool'],
]);
/** Events whose attributes use the same keys as span attributes. */
const CONTENT_EVENTS = new Set([
  'gen_ai.content.prompt',
  'gen_ai.content.completion',
  'gen_ai.client.inference.operation.details',
]);

/** The conversation of an LLM span, or undefined when it carries no content. */
export function extractConversation(span: OtlpSpan): Conversation | undefined {
  const conversation: Conversation = { input: [], output: [] };
  readContentAttributes(span.attributes, conversation);
  for (const event of span.events) {
    const role = MESSAGE_EVENT_ROLES.get(event.name);
    if (role !== undefined) conversation.input.push({ role, ...attributesAsObject(event.attributes, 'gen_ai.system') });
    else if (event.name === 'gen_ai.choice')
      conversation.output.push(attributesAsObject(event.attributes, 'gen_ai.system'));
    else if (CONTENT_EVENTS.has(event.name)) readContentAttributes(event.attributes, conversation);
  }
  const empty =
    conversation.system === undefined && conversation.input.length === 0 && conversation.output.length === 0;
  return empty ? undefined : conversation;
}

/**
 * The document as stored, or undefined when it cannot be serialized: JSON.stringify recurses, so
 * a message string holding JSON nested tens of thousands deep would overflow the stack.
 */
export function serializeConversation(conversation: Conversation): string | undefined {
  try {
    return JSON.stringify(conversation);
  } catch {
    return undefined;
  }
}

/**
 * Tool calls requested in the output: 1.37 message parts of type `tool_call`, `tool_calls` arrays
 * of indexed attributes and OpenAI-shaped messages, and `gen_ai.choice` events' `message`.
 */
export function countToolCalls(output: readonly unknown[]): number {
  let count = 0;
  for (const message of output) {
    if (!isObject(message)) continue;
    const inner = isObject(message.message) ? message.message : message;
    if (Array.isArray(inner.parts))
      count += inner.parts.filter((part) => isObject(part) && part.type === 'tool_call').length;
    else if (Array.isArray(inner.tool_calls)) count += inner.tool_calls.length;
  }
  return count;
}

function readContentAttributes(attributes: readonly KeyValue[], conversation: Conversation): void {
  const indexed: Record<Side, PathTree> = { input: new Map(), output: new Map() };
  for (const { key, value } of attributes) {
    if (key === 'gen_ai.system_instructions') conversation.system = parseIfJson(value);
    else if (key === 'gen_ai.input.messages' || key === 'gen_ai.prompt')
      append(conversation.input, asMessages(value, 'input'));
    else if (key === 'gen_ai.output.messages' || key === 'gen_ai.completion')
      append(conversation.output, asMessages(value, 'output'));
    else {
      const match = INDEXED_MESSAGE_KEY.exec(key);
      if (match === null) continue;
      const path = [match[2]!, ...match[3]!.split('.')];
      if (path.length <= MAX_INDEXED_KEY_DEPTH)
        setPath(indexed[match[1] === 'prompt' ? 'input' : 'output'], path, parseIfJson(value));
    }
  }
  // The top-level keys are message indexes, so both trees become arrays.
  append(conversation.input, treeToJson(indexed.input) as unknown[]);
  append(conversation.output, treeToJson(indexed.output) as unknown[]);
}

/** A message list from one attribute: a JSON or structured array, one message object, or plain text. */
function asMessages(value: AnyValue, side: Side): unknown[] {
  const parsed = parseIfJson(value);
  if (Array.isArray(parsed)) return parsed;
  if (isObject(parsed)) return [parsed];
  if (parsed === null || parsed === '') return [];
  return [{ role: DEFAULT_ROLE[side], content: parsed }];
}

/** Strings holding JSON objects or arrays are parsed, as instrumentations serialize messages. */
function parseIfJson(value: AnyValue): unknown {
  if (value.type !== 'string') return anyValueToJson(value);
  const text = value.value.trimStart();
  if (!text.startsWith('[') && !text.startsWith('{')) return value.value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value.value;
  }
}

function attributesAsObject(attributes: readonly KeyValue[], omitKey: string): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const { key, value } of attributes) if (key !== omitKey) setOwn(object, key, parseIfJson(value));
  return object;
}

/** Indexed attribute keys split on dots, as a tree; leaves are the attribute values. */
type PathTree = Map<string, unknown>;

function setPath(tree: PathTree, path: readonly string[], value: unknown): void {
  let node = tree;
  for (const segment of path.slice(0, -1)) {
    let child = node.get(segment);
    if (!(child instanceof Map)) {
      child = new Map();
      node.set(segment, child);
    }
    node = child as PathTree;
  }
  node.set(path[path.length - 1]!, value);
}

/**
 * Tree nodes whose keys are all indexes become arrays in index order, gaps closed (a sender's
 * `gen_ai.prompt.999999.role` must not become a million-element array); others become objects.
 */
function treeToJson(node: unknown): unknown {
  if (!(node instanceof Map)) return node;
  const tree = node as PathTree;
  const keys = [...tree.keys()];
  if (keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => treeToJson(tree.get(key)));
  }
  const object: Record<string, unknown> = {};
  for (const key of keys) setOwn(object, key, treeToJson(tree.get(key)));
  return object;
}

/** `push(...items)` would overflow the stack on a sender's list of a few hundred thousand messages. */
function append(target: unknown[], items: readonly unknown[]): void {
  for (const item of items) target.push(item);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
