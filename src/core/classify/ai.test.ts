import { describe, expect, it } from 'vitest';
import { classifyTraces } from './classify-traces.js';
import { modelPrice } from './pricing.js';
import {
  PROJECT_ID,
  RECEIVED_AT,
  span,
  TRACE_UUID,
  traceRequest,
  type SpanSpec,
} from '../../../test/support/test-spans.js';

function aiTrace(spec: Omit<SpanSpec, 'spanId'>) {
  const result = classifyTraces(
    traceRequest(span({ spanId: 'ab00000000000001', kind: 'CLIENT', name: 'chat', ...spec })),
    {
      projectId: PROJECT_ID,
      receivedAt: RECEIVED_AT,
    },
  );
  expect(result.batch.aiTraces).toHaveLength(1);
  return { record: result.batch.aiTraces[0]!, conversations: result.conversations };
}

describe('AI trace fields', () => {
  it('reads the semantic-convention attributes and prices the call from the list prices', () => {
    const { record } = aiTrace({
      status: { code: 'ERROR', message: '' },
      attributes: {
        'trace.name': 'support-bot',
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'openai-legacy',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.usage.input_tokens': 1000,
        'gen_ai.usage.cache_read.input_tokens': 200,
        'gen_ai.usage.output_tokens': 500,
        'gen_ai.usage.reasoning.output_tokens': 120,
        'gen_ai.response.finish_reasons': ['stop', 'length'],
        'gen_ai.conversation.id': 'conv-42',
      },
    });
    expect(record).toMatchObject({
      name: 'support-bot',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      operation: 'chat',
      inputTokens: 1000,
      outputTokens: 500,
      cachedTokens: 200,
      reasoningTokens: 120,
      finishReason: 'stop,length',
      conversationId: 'conv-42',
      isError: true,
      conversationKey: '',
      source: 'otlp',
    });
    // gpt-4o: $2.50 input, $1.25 cached input, $10 output per million tokens.
    expect(record.inputCost).toBeCloseTo((800 * 2.5 + 200 * 1.25) / 1e6, 12);
    expect(record.outputCost).toBeCloseTo((500 * 10) / 1e6, 12);
    expect(record.totalCost).toBeCloseTo(record.inputCost + record.outputCost, 12);
  });

  it('accepts the older attribute names and falls back to the span name', () => {
    const { record } = aiTrace({
      name: 'openai.chat',
      attributes: {
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': 'claude-3-5-sonnet-20241022',
        'gen_ai.usage.prompt_tokens': 10,
        'gen_ai.usage.completion_tokens': 20,
        'gen_ai.usage.cache_read_input_tokens': 4,
      },
    });
    expect(record).toMatchObject({
      name: 'openai.chat',
      provider: 'anthropic',
      inputTokens: 10,
      outputTokens: 20,
      cachedTokens: 4,
      isError: false,
    });
    expect(record.totalCost).toBeCloseTo((6 * 3 + 4 * 0.3 + 20 * 15) / 1e6, 12);
  });

  it('takes costs from cost attributes when the span carries them', () => {
    const { record } = aiTrace({
      attributes: {
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 1000,
        'gen_ai.usage.input_cost': 0.5,
        'gen_ai.usage.output_cost': 0.25,
      },
    });
    expect(record).toMatchObject({ inputCost: 0.5, outputCost: 0.25, totalCost: 0.75 });
    expect(
      aiTrace({ attributes: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.cost': 1.5 } }).record,
    ).toMatchObject({ inputCost: 0, outputCost: 0, totalCost: 1.5 });
  });

  it('gives the other part of a reported total as the difference (before: 0)', () => {
    const { record } = aiTrace({
      attributes: {
        'gen_ai.request.model': 'in-house-7b',
        'gen_ai.usage.total_cost': 1,
        'gen_ai.usage.input_cost': 0.25,
      },
    });
    expect(record).toMatchObject({ inputCost: 0.25, outputCost: 0.75, totalCost: 1 });
    const output = aiTrace({ attributes: { 'gen_ai.usage.cost': 1, 'gen_ai.usage.output_cost': 0.6 } }).record;
    expect(output.inputCost).toBeCloseTo(0.4, 12);
    expect(output).toMatchObject({ outputCost: 0.6, totalCost: 1 });
    // A part above the total is taken as reported; the other is not negative.
    expect(aiTrace({ attributes: { 'gen_ai.usage.cost': 1, 'gen_ai.usage.output_cost': 2 } }).record).toMatchObject({
      inputCost: 0,
      outputCost: 2,
      totalCost: 1,
    });
  });

  it('splits a reported total alone as the list prices would, keeping the total (before: parts 0)', () => {
    const { record } = aiTrace({
      attributes: {
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 1000,
        'gen_ai.usage.output_tokens': 500,
        'gen_ai.usage.cost': 0.009,
      },
    });
    // gpt-4o lists $2.50 in and $10 out per million: 1000 in = $0.0025, 500 out = $0.005.
    expect(record.inputCost).toBeCloseTo((0.009 * 2.5) / 7.5, 12);
    expect(record.outputCost).toBeCloseTo((0.009 * 5) / 7.5, 12);
    expect(record.totalCost).toBe(0.009);
  });

  it('costs nothing for a model the price list does not know', () => {
    expect(
      aiTrace({ attributes: { 'gen_ai.request.model': 'in-house-7b', 'gen_ai.usage.input_tokens': 1000 } }).record
        .totalCost,
    ).toBe(0);
  });
});

describe('conversations', () => {
  it('keeps 1.37 message attributes (JSON strings) and counts tool-call parts', () => {
    const input = [{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }];
    const output = [
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
        finish_reason: 'tool_call',
      },
    ];
    const { record, conversations } = aiTrace({
      attributes: {
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
        'gen_ai.input.messages': JSON.stringify(input),
        'gen_ai.output.messages': JSON.stringify(output),
      },
    });
    expect(record).toMatchObject({
      toolCalls: 1,
      finishReason: 'tool_call',
      conversationKey: `ai/${PROJECT_ID}/${TRACE_UUID}.json`,
    });
    expect(conversations).toEqual([
      {
        key: record.conversationKey,
        json: JSON.stringify({ input, output, system: [{ type: 'text', content: 'Be brief.' }] }),
      },
    ]);
  });

  it('gathers indexed gen_ai.prompt.* / gen_ai.completion.* attributes, tool calls included', () => {
    const { record, conversations } = aiTrace({
      attributes: {
        'gen_ai.prompt.1.role': 'user',
        'gen_ai.prompt.1.content': 'And in Rome?',
        'gen_ai.prompt.0.role': 'system',
        'gen_ai.prompt.0.content': 'You are a weather bot.',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.finish_reason': 'tool_calls',
        'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Rome"}',
        'gen_ai.completion.0.tool_calls.1.name': 'get_time',
      },
    });
    expect(JSON.parse(conversations[0]!.json)).toEqual({
      input: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'And in Rome?' },
      ],
      output: [
        {
          role: 'assistant',
          finish_reason: 'tool_calls',
          tool_calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }, { name: 'get_time' }],
        },
      ],
    });
    expect(record).toMatchObject({ toolCalls: 2, finishReason: 'tool_calls' });
  });

  it('reads gen_ai message and choice events, and closes gaps in huge indexes', () => {
    const { conversations } = aiTrace({
      attributes: { 'gen_ai.system': 'openai', 'gen_ai.prompt.999999.content': 'late' },
      events: [
        { name: 'gen_ai.user.message', attributes: { 'gen_ai.system': 'openai', content: 'Hi' } },
        {
          name: 'gen_ai.choice',
          attributes: { index: 0, finish_reason: 'stop', message: '{"role":"assistant","content":"Hello"}' },
        },
      ],
    });
    expect(JSON.parse(conversations[0]!.json)).toEqual({
      input: [{ content: 'late' }, { role: 'user', content: 'Hi' }],
      output: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello' } }],
    });
  });

  it('stores no conversation when a message attribute nests too deep to serialize', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const { record, conversations } = aiTrace({ attributes: { 'gen_ai.input.messages': deep } });
    expect([record.conversationKey, conversations]).toEqual(['', []]);
  });

  it('wraps plain-text gen_ai.prompt / gen_ai.completion as messages', () => {
    const { conversations } = aiTrace({ attributes: { 'gen_ai.prompt': 'Say hi', 'gen_ai.completion': 'Hi!' } });
    expect(JSON.parse(conversations[0]!.json)).toEqual({
      input: [{ role: 'user', content: 'Say hi' }],
      output: [{ role: 'assistant', content: 'Hi!' }],
    });
  });
});

describe('model prices', () => {
  it.each([
    ['gpt-4o', 2.5],
    ['gpt-4o-2024-08-06', 2.5],
    ['gpt-4o-mini-2024-07-18', 0.15],
    ['openai/gpt-4.1-mini', 0.4],
    ['models/gemini-2.5-flash-lite', 0.1],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 3],
    ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 0.88],
  ])('%s costs $%s per million input tokens', (model, input) => {
    expect(modelPrice(model)?.input).toBe(input);
  });

  it.each(['gpt-4oo', 'o10', 'unknown-model', ''])('%s is not priced', (model) => {
    expect(modelPrice(model)).toBeUndefined();
  });
});
