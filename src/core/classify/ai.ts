/**
 * What a span with `gen_ai.*` attributes says about an LLM call: the fields of an AI-trace row
 * besides its identity and conversation key (the conversation itself is conversation.ts).
 *
 * Costs: taken from the span when it carries them — `gen_ai.usage.input_cost`,
 * `gen_ai.usage.output_cost` and `gen_ai.usage.total_cost` or `gen_ai.usage.cost` (the total;
 * LiteLLM and Langfuse style), in US dollars — otherwise computed from the token counts and the
 * list prices in model-prices.json, and 0 for a model that is not listed. A reported total with
 * one part gives the other as the difference; a total alone is split as the list prices would
 * split it (the reported total kept), and stays unsplit (parts 0) for a model not listed.
 */
import type { AiCall, Attributes } from '../records.js';
import { findAttribute, firstAttribute } from './attributes.js';
import { type Conversation, countToolCalls } from './conversation.js';
import type { KeyValue, OtlpSpan } from './otlp-model.js';
import { type Cost, costFromPrices, modelPrice, type TokenUsage } from './pricing.js';

const GEN_AI_PREFIX = 'gen_ai.';
// Token attributes: the semantic conventions' name first, then names instrumentations used before
// it or beside it (OpenAI's prompt/completion wording, Anthropic-style cache names, Sentry's).
const INPUT_TOKEN_KEYS = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'];
const OUTPUT_TOKEN_KEYS = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'];
const CACHED_TOKEN_KEYS = [
  'gen_ai.usage.cache_read.input_tokens',
  'gen_ai.usage.cache_read_input_tokens',
  'gen_ai.usage.input_tokens.cached',
  'gen_ai.usage.cached_tokens',
];
const REASONING_TOKEN_KEYS = [
  'gen_ai.usage.reasoning.output_tokens',
  'gen_ai.usage.output_tokens.reasoning',
  'gen_ai.usage.reasoning_tokens',
];
const TOTAL_COST_KEYS = ['gen_ai.usage.total_cost', 'gen_ai.usage.cost'];

export function hasGenAiAttributes(attributes: readonly KeyValue[]): boolean {
  for (const { key } of attributes) if (key.startsWith(GEN_AI_PREFIX)) return true;
  return false;
}

/** The row fields of an LLM span; `conversation` (extractConversation) supplies tool calls. */
export function readAiCall(span: OtlpSpan, attributes: Attributes, conversation: Conversation | undefined): AiCall {
  const model = firstAttribute(attributes, ['gen_ai.response.model', 'gen_ai.request.model']) ?? '';
  const usage: TokenUsage = {
    inputTokens: count(attributes, INPUT_TOKEN_KEYS),
    outputTokens: count(attributes, OUTPUT_TOKEN_KEYS),
    cachedTokens: count(attributes, CACHED_TOKEN_KEYS),
  };
  const cost = costFromAttributes(attributes, model, usage) ?? costFromModel(model, usage);
  return {
    name: attributes['trace.name'] || span.name,
    model,
    provider: firstAttribute(attributes, ['gen_ai.provider.name', 'gen_ai.system']) ?? '',
    operation: attributes['gen_ai.operation.name'] ?? '',
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedTokens,
    reasoningTokens: count(attributes, REASONING_TOKEN_KEYS),
    inputCost: cost.inputCost,
    outputCost: cost.outputCost,
    totalCost: cost.totalCost,
    finishReason: finishReason(span, conversation),
    toolCalls: conversation === undefined ? 0 : countToolCalls(conversation.output),
    conversationId: attributes['gen_ai.conversation.id'] ?? '',
    isError: span.status.code === 'ERROR' || attributes['error.type'] !== undefined,
  };
}

function count(attributes: Attributes, keys: readonly string[]): number {
  const value = Number(firstAttribute(attributes, keys) ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function costAttribute(attributes: Attributes, keys: readonly string[]): number | undefined {
  const text = firstAttribute(attributes, keys);
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function costFromAttributes(attributes: Attributes, model: string, usage: TokenUsage): Cost | undefined {
  const inputCost = costAttribute(attributes, ['gen_ai.usage.input_cost']);
  const outputCost = costAttribute(attributes, ['gen_ai.usage.output_cost']);
  const totalCost = costAttribute(attributes, TOTAL_COST_KEYS);
  if (totalCost === undefined) {
    if (inputCost === undefined && outputCost === undefined) return undefined;
    return { inputCost: inputCost ?? 0, outputCost: outputCost ?? 0, totalCost: (inputCost ?? 0) + (outputCost ?? 0) };
  }
  if (inputCost !== undefined || outputCost !== undefined)
    return {
      inputCost: inputCost ?? Math.max(0, totalCost - (outputCost ?? 0)),
      outputCost: outputCost ?? Math.max(0, totalCost - (inputCost ?? 0)),
      totalCost,
    };
  const listed = costFromModel(model, usage);
  const share = listed.totalCost > 0 ? listed.inputCost / listed.totalCost : undefined;
  return share === undefined
    ? { inputCost: 0, outputCost: 0, totalCost }
    : { inputCost: totalCost * share, outputCost: totalCost * (1 - share), totalCost };
}

function costFromModel(model: string, usage: TokenUsage): Cost {
  const price = modelPrice(model);
  return price === undefined ? { inputCost: 0, outputCost: 0, totalCost: 0 } : costFromPrices(price, usage);
}

/** `gen_ai.response.finish_reasons` (a string array, joined), else the first output message's. */
function finishReason(span: OtlpSpan, conversation: Conversation | undefined): string {
  const reasons = findAttribute(span.attributes, 'gen_ai.response.finish_reasons');
  if (reasons?.type === 'array')
    return reasons.value.flatMap((reason) => (reason.type === 'string' ? [reason.value] : [])).join(',');
  if (reasons?.type === 'string') return reasons.value;
  const first: unknown = conversation?.output[0];
  const reason =
    typeof first === 'object' && first !== null ? (first as Record<string, unknown>).finish_reason : undefined;
  return typeof reason === 'string' ? reason : '';
}
