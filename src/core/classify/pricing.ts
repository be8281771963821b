/**
 * Cost of an LLM call from its token counts and the list prices in model-prices.json.
 */
import priceList from './model-prices.json' with { type: 'json' };

export interface ModelPrice {
  /** US dollars per million input tokens. */
  input: number;
  /** Per million input tokens read from the prompt cache; the input price when absent. */
  cachedInput?: number;
  output: number;
}

export interface TokenUsage {
  /** All input tokens, cached ones included (the semantic conventions' gen_ai.usage.input_tokens). */
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export interface Cost {
  inputCost: number;
  outputCost: number;
  totalCost: number;
}

const PRICES: Readonly<Record<string, ModelPrice>> = priceList.models;
const TOKENS_PER_PRICE_UNIT = 1_000_000;
/** What may follow a price key in a longer model name: dated or tagged variants of the family. */
const VARIANT_SEPARATORS = new Set(['-', '@', ':', '_']);

/**
 * The price of `model`: the longest key that is the whole name or a prefix followed by a variant
 * separator. Names are matched lower-cased and without routing prefixes, so `openai/gpt-4o`,
 * `models/gemini-2.5-pro` and Bedrock's `us.anthropic.claude-sonnet-4-20250514-v1:0` are found.
 */
export function modelPrice(model: string): ModelPrice | undefined {
  let name = model.trim().toLowerCase();
  name = name.slice(name.lastIndexOf('/') + 1);
  for (;;) {
    const price = longestPrefixPrice(name);
    if (price !== undefined) return price;
    const dot = name.indexOf('.');
    // Vendor prefixes are dotted (`anthropic.`); drop one and retry.
    if (dot < 0) return undefined;
    name = name.slice(dot + 1);
  }
}

function longestPrefixPrice(name: string): ModelPrice | undefined {
  let best: string | undefined;
  for (const key of Object.keys(PRICES)) {
    const matches = name === key || (name.startsWith(key) && VARIANT_SEPARATORS.has(name.charAt(key.length)));
    if (matches && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : PRICES[best];
}

/** Cached input tokens are billed at the cached price, the rest of the input at the input price. */
export function costFromPrices(price: ModelPrice, usage: TokenUsage): Cost {
  const cachedTokens = Math.min(usage.cachedTokens, usage.inputTokens);
  const inputCost =
    ((usage.inputTokens - cachedTokens) * price.input + cachedTokens * (price.cachedInput ?? price.input)) /
    TOKENS_PER_PRICE_UNIT;
  const outputCost = (usage.outputTokens * price.output) / TOKENS_PER_PRICE_UNIT;
  return { inputCost, outputCost, totalCost: inputCost + outputCost };
}
