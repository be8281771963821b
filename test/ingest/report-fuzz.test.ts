/**
 * POST /api/report under thousands of malformed and adversarial bodies (fast-check), through the
 * whole service with a valid project token: every answer is 200, 400 or 413 — never a 500 or a
 * 503 — refusals carry a JSON `{error}`, and the process keeps its memory.
 *
 * The bodies: arbitrary JSON values; a valid payload with mutations at any path (wrong types,
 * deletions, unknown fields, huge strings, huge and fractional numbers, bad UUIDs and
 * timestamps, lone surrogates, 100k-deep nesting); broken framing (truncated gzip, gzip of
 * garbage, random bytes under any claimed encoding, invalid UTF-8, empty bodies, wrong content
 * types); and the caps (a gzip bomb and a plain body over 64 MB).
 */
import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryParams } from '../../src/store/telemetry/engine.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const MB = 1024 * 1024;
/**
 * A safety net for the heavy tests on a loaded CI machine, not a performance threshold. Their
 * draws include strings of up to 2M characters, so one run's work varies about tenfold with the
 * seed (22–44 s alone on an idle machine); one draw exceeded 300 s beside the suite's other worker.
 */
const SLOW_TEST_MS = 600_000;
/** The seed of every property here, printed first so that a run which fails or times out can be replayed with FUZZ_SEED. */
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Bodies in flight at once in the properties whose bodies are mostly accepted. */
const CONCURRENCY = 50;
/**
 * Bounds on growth over the whole file. Resident memory holds the engines' caches and the peak
 * of the 64 MB bodies, so its bound is generous; the JavaScript heap after a full collection
 * must come back near where it started (nothing retains bodies or records).
 */
const RSS_GROWTH_BOUND = 1024 * MB;
const HEAP_GROWTH_BOUND = 128 * MB;

type Encoding = 'identity' | 'gzip' | 'deflate' | 'br';
const ENCODE: Record<Encoding, (body: Buffer) => Buffer> = {
  identity: (body) => body,
  gzip: (body) => zlib.gzipSync(body, { level: 1 }),
  deflate: (body) => zlib.deflateSync(body, { level: 1 }),
  br: (body) => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
};
const encodings = fc.constantFrom<Encoding>('identity', 'gzip', 'deflate', 'br');
const contentTypes = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-protobuf',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  '*/*',
  undefined,
);

/** JSON text placed verbatim where JSON.stringify cannot write it (1e400, 100k-deep nesting). */
class Raw {
  constructor(readonly text: string) {}
}

/** Serializes a payload whose values may be Raw, splicing the raw texts in after stringify. */
function serialize(value: unknown): Buffer {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Raw)) return v;
    raws.push(v.text);
    return `\u0000raw${raws.length - 1}\u0000`;
  });
  return Buffer.from(
    raws.length === 0 ? text : text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!),
  );
}

// ---- a valid payload ----

const uuid = fc.uuid();
const timestamp = fc
  .date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
const text = fc.string({ maxLength: 30 });
const attributes = fc.option(
  fc.dictionary(fc.string({ maxLength: 16 }), fc.string({ maxLength: 40 }), { maxKeys: 6 }),
  { nil: undefined },
);
const span = fc.record({ id: uuid, name: text, startTime: timestamp, duration: fc.maxSafeNat() });
const trace = fc.record(
  {
    id: uuid,
    endpoint: fc.oneof(fc.constantFrom('GET /users/:id', 'POST /orders', 'nightly-export'), text),
    duration: fc.maxSafeNat(),
    recordedAt: timestamp,
    statusCode: fc.integer({ min: 0, max: 599 }),
    bodySize: fc.nat(),
    clientIP: fc.oneof(fc.ipV4(), fc.constant('')),
    attributes,
    spans: fc.array(span, { maxLength: 3 }),
    isTask: fc.boolean(),
  },
  { requiredKeys: ['id', 'endpoint', 'duration', 'recordedAt', 'statusCode', 'bodySize', 'clientIP'] },
);
const exception = fc.record(
  {
    traceId: fc.option(uuid),
    isTask: fc.boolean(),
    stackTrace: fc.oneof(text, fc.constant('*errors.errorString: boom\nmain.run()\n    /srv/app/main.go:12\n')),
    recordedAt: timestamp,
    attributes,
    isMessage: fc.boolean(),
    sessionId: fc.option(uuid),
    sessionRecordingId: uuid,
  },
  { requiredKeys: ['stackTrace', 'recordedAt', 'isMessage'] },
);
const metric = fc.record({
  name: text,
  value: fc.double({ noNaN: true, noDefaultInfinity: true }),
  recordedAt: timestamp,
});
const session = fc.record(
  {
    id: uuid,
    startedAt: timestamp,
    clientIP: fc.ipV4(),
    attributes: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  },
  { requiredKeys: ['id', 'startedAt'] },
);
const recording = fc.record(
  {
    sessionId: uuid,
    exceptionId: uuid,
    segmentIndex: fc.nat({ max: 100 }),
    events: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }),
    logs: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }),
    actions: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }),
    startedAt: timestamp,
    endedAt: timestamp,
  },
  { requiredKeys: ['sessionId', 'events'] },
);
const frame = fc.record(
  {
    stackTraces: fc.array(exception, { maxLength: 2 }),
    metrics: fc.array(metric, { maxLength: 2 }),
    traces: fc.array(trace, { maxLength: 3 }),
    sessions: fc.array(session, { maxLength: 1 }),
    sessionRecordings: fc.array(recording, { maxLength: 1 }),
  },
  { requiredKeys: ['stackTraces', 'metrics', 'traces'] },
);
const validPayload = fc.record({
  collectionFrames: fc.array(frame, { minLength: 1, maxLength: 2 }),
  appVersion: text,
  serverName: text,
});

// ---- adversarial values ----

const BAD_UUIDS = [
  '',
  'not-a-uuid',
  '6f9619ff8b864011b42d00cf4fc964ff',
  '6f9619ff-8b86-4011-b42d-00cf4fc964fg',
  '{6f9619ff-8b86-4011-b42d-00cf4fc964ff}',
  ' 6f9619ff-8b86-4011-b42d-00cf4fc964ff',
];
const BAD_TIMESTAMPS = [
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-05-01T24:00:00Z',
  '2024-05-01T10:00:60Z',
  '2024-05-01 10:00:00Z',
  '2024-05-01T10:00:00',
  '2024-05-01T10:00:00.Z',
  '2024-05-01T10:00:00.1234567890Z',
  '2024-05-01T10:00:00+24:00',
  '1899-12-31T23:59:59Z',
  '1900-01-01T00:00:00+00:01',
  '2262-04-11T23:47:16.854775808Z',
  '9999-12-31T23:59:59.999999999-23:59',
  '0000-01-01T00:00:00Z',
  '+002024-05-01T10:00:00Z',
  '1714557600',
];
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '1E+2',
  '0.1e1',
  '5e-324',
  '9223372036854775807',
  '18446744073709551616',
  '123456789012345678901234567890',
];
/** Patterns that make a careless regex backtrack, repeated into long strings. */
const HUGE_UNITS = [
  'x',
  '/',
  'a/',
  '../',
  '1.',
  '0x',
  'a@',
  'a.b@',
  ':',
  '::1:',
  '1111.',
  '\\',
  '  ',
  '\n',
  '\t at ',
  'goroutine ',
  '#0 ',
  '?',
  '.a?',
  '\n.a?',
  '[',
  '@1',
  '\u00e9',
  '\ud83d\ude00',
];

const loneSurrogate = fc
  .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 8 }))
  .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`);
const hugeString = fc
  .tuple(fc.constantFrom(...HUGE_UNITS), fc.integer({ min: 10_000, max: 2_000_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));
const deepNesting = fc
  .tuple(fc.constantFrom('array', 'object'), fc.integer({ min: 1_000, max: 100_000 }))
  .map(([kind, depth]) =>
    kind === 'array'
      ? new Raw('['.repeat(depth) + ']'.repeat(depth))
      : new Raw(`${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );
const evil: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      -0.5,
      1.5,
      2 ** 53,
      2 ** 64,
      1e308,
      -1e308,
      Number.MIN_VALUE,
      '',
      ' ',
      [],
      {},
      [null],
      { '': '' },
      { __proto__: 'x' },
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...BAD_UUIDS, ...BAD_TIMESTAMPS) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((number) => new Raw(number)) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepNesting },
);

type Path = Array<string | number>;

/** Every path of a JSON tree: the root, each object field and each array element. */
function pathsOf(value: unknown, prefix: Path = [], into: Path[] = []): Path[] {
  into.push(prefix);
  if (Array.isArray(value))
    value.forEach((item, i) => {
      pathsOf(item, [...prefix, i], into);
    });
  else if (typeof value === 'object' && value !== null)
    for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...prefix, key], into);
  return into;
}

type Mutation = { op: 'replace' | 'delete' | 'add'; at: number; value: unknown; key: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom<Mutation['op']>('replace', 'replace', 'delete', 'add'),
  at: fc.nat(),
  value: evil,
  key: fc.oneof(
    fc.constantFrom('attributes', 'spans', 'events', 'distributedTraceId', '__proto__', 'constructor', ''),
    fc.string({ maxLength: 12 }),
  ),
});

/**
 * A copy of a mutation's value for the tree. The arbitraries' constants (`[]`, `{}`, `[null]`) are
 * one object shared by every run, and a later mutation may push into the value it finds in the
 * tree: inserted as they were, a constant grew across runs and once held itself (a cycle
 * JSON.stringify refused, FUZZ_SEED=1641916911). Raw texts are kept as they are (immutable).
 */
function fresh(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Raw) return value;
  if (Array.isArray(value)) return value.map(fresh);
  const copy = {};
  for (const [key, field] of Object.entries(value)) {
    // defineProperty keeps an own "__proto__" key a key (an assignment would set the prototype).
    Object.defineProperty(copy, key, { value: fresh(field), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Applies mutations to a copy of the payload; a replaced root makes the whole body adversarial. */
function mutate(payload: unknown, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(payload);
  for (const { op, at, value: shared, key } of mutations) {
    const value = fresh(shared);
    const paths = pathsOf(root);
    const path = paths[at % paths.length]!;
    if (path.length === 0) {
      if (op === 'replace') root = value;
      else if (op === 'add' && typeof root === 'object' && root !== null && !Array.isArray(root))
        Object.defineProperty(root, key, { value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    let parent = root as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    const target = parent[last];
    if (op === 'replace') parent[last] = value;
    else if (op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    } else if (Array.isArray(target)) target.push(value);
    else parent[last] = value;
  }
  return root;
}

// ---- the service ----

let service: TestService;
let token: string;
const statuses = new Map<number, number>();

beforeAll(async () => {
  console.log(`report fuzz seed ${FUZZ_SEED} (FUZZ_SEED=${FUZZ_SEED} replays it)`);
  // A short linger keeps thousands of sequential 200s quick; the writer path is the same.
  service = await startTestService({ WRITER_FLUSH_MS: '1' });
  token = (await registerUser(service.app)).project.token;
});
afterAll(async () => {
  console.log(
    `report fuzz answers: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(', ')}`,
  );
  await service?.close();
  // Removing the data folder's thousands of one-flush parts took 7–30 s on a loaded machine, and
  // past the suite's 120 s hook limit in a clean-clone CI run at load 26.
}, 300_000);

interface Body {
  payload: Buffer;
  encoding?: string;
  contentType?: string;
}

/** Posts one body and checks the answer's contract. */
async function post({ payload, encoding, contentType = 'application/json' }: Body): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (encoding !== undefined) headers['content-encoding'] = encoding;
  const response = await service.app.inject({ method: 'POST', url: '/api/report', headers, payload });
  statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  const context = `status ${response.statusCode}, body ${response.body.slice(0, 300)}`;
  expect([200, 400, 413], context).toContain(response.statusCode);
  if (response.statusCode === 200) {
    expect(response.body, context).toBe('{}');
  } else {
    expect(response.headers['content-type'], context).toMatch(/^application\/json/);
    const answer = response.json() as { error?: unknown };
    expect(typeof answer.error, context).toBe('string');
  }
  return response.statusCode;
}

function encoded(json: Buffer, encoding: Encoding): Body {
  return { payload: ENCODE[encoding](json), encoding: encoding === 'identity' ? undefined : encoding };
}

function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

let rssBefore = 0;
let heapBefore = 0;

describe('POST /api/report under adversarial bodies', () => {
  it('warms up with a valid payload (baseline memory)', async () => {
    const [payload] = fc.sample(validPayload, { numRuns: 1, seed: 1 });
    expect(await post(encoded(serialize(payload), 'gzip'))).toBe(200);
    collectGarbage();
    ({ rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage());
  });

  it('answers arbitrary JSON values with 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.jsonValue({ maxDepth: 8 })), encodings, async (value, encoding) => {
        expect([200, 400]).toContain(await post(encoded(serialize(value), encoding)));
      }),
      { numRuns: 600, seed: FUZZ_SEED },
    );
  });

  it(
    'answers mutated valid payloads with 200 or 400 (a bad record is skipped, a bad shape refused)',
    async () => {
      const mutated = fc.tuple(validPayload, fc.array(mutation, { minLength: 1, maxLength: 4 }), encodings);
      // endOnFailure: shrinking rounds of 50 concurrent bodies ran past the test's timeout once (in a
      // full suite), hiding the answer that failed; the first failing round is reported as it is.
      // Concurrent bodies, as clients send them: their rows share group commits, which keeps thousands of 200s quick.
      await fc.assert(
        fc.asyncProperty(fc.array(mutated, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (bodies) => {
          const answers = await Promise.all(
            bodies.map(([payload, mutations, encoding]) =>
              post(encoded(serialize(mutate(payload, mutations)), encoding)),
            ),
          );
          for (const status of answers) expect([200, 400]).toContain(status);
        }),
        { numRuns: 1000 / CONCURRENCY, seed: FUZZ_SEED, endOnFailure: true },
      );
    },
    SLOW_TEST_MS,
  );

  it(
    'answers 100k-deep nesting anywhere in the body',
    async () => {
      const deepArray = new Raw('['.repeat(100_000) + ']'.repeat(100_000));
      const deepObject = new Raw(`${'{"k":'.repeat(100_000)}"v"${'}'.repeat(100_000)}`);
      const [valid] = fc.sample(validPayload, { numRuns: 1, seed: 2 }) as Array<{
        collectionFrames: Array<Record<string, unknown>>;
      }>;
      const traceOf = (extra: Record<string, unknown>) => ({
        id: '6f9619ff-8b86-4011-b42d-00cf4fc964ff',
        endpoint: 'GET /deep',
        duration: 1,
        recordedAt: '2024-05-01T10:00:00Z',
        statusCode: 200,
        bodySize: 0,
        clientIP: '',
        ...extra,
      });
      const frameWith = (frame: Record<string, unknown>) => ({
        collectionFrames: [{ stackTraces: [], metrics: [], traces: [], ...frame }],
        appVersion: '',
        serverName: 'deep',
      });
      for (const deep of [deepArray, deepObject]) {
        const bodies: unknown[] = [
          deep,
          { collectionFrames: deep, appVersion: '', serverName: '' },
          { ...valid, extra: deep },
          frameWith({ traces: [traceOf({ attributes: { nested: deep } })] }),
          frameWith({ traces: [traceOf({ attributes: deep })] }),
          frameWith({
            traces: [
              traceOf({
                spans: [
                  {
                    id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
                    name: 's',
                    startTime: '2024-05-01T10:00:00Z',
                    duration: 1,
                    attributes: { nested: deep },
                  },
                ],
              }),
            ],
          }),
          frameWith({ traces: [deep] }),
          frameWith({
            stackTraces: [
              {
                stackTrace: 'E: x',
                recordedAt: '2024-05-01T10:00:00Z',
                isMessage: false,
                attributes: { nested: deep },
              },
            ],
          }),
          frameWith({ metrics: [{ name: 'm', value: 1, recordedAt: '2024-05-01T10:00:00Z', tags: { nested: deep } }] }),
          frameWith({
            sessions: [
              {
                id: 'c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
                startedAt: '2024-05-01T10:00:00Z',
                attributes: { nested: deep },
              },
            ],
          }),
          ...(['events', 'logs', 'actions'] as const).map((field) =>
            frameWith({
              sessionRecordings: [{ sessionId: 'c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f', events: [], [field]: [deep] }],
            }),
          ),
        ];
        for (const body of bodies) {
          for (const encoding of ['identity', 'gzip'] as const)
            expect([200, 400]).toContain(await post(encoded(serialize(body), encoding)));
        }
      }
    },
    SLOW_TEST_MS,
  );

  it(
    'answers broken framing with 400: truncated gzip, gzip of garbage, random bytes, unknown encodings, empty bodies',
    async () => {
      const validBodies = fc.sample(validPayload, { numRuns: 20, seed: 3 }).map((payload) => serialize(payload));
      type Framed = Body & { expected: 200 | 400 };
      const framing = fc.oneof(
        // A compressed valid payload cut short.
        fc
          .tuple(
            fc.constantFrom<Encoding>('gzip', 'deflate', 'br'),
            fc.nat({ max: validBodies.length - 1 }),
            fc.double({ min: 0, max: 0.999, noNaN: true }),
          )
          .map(([encoding, i, fraction]): Framed => {
            const whole = ENCODE[encoding](validBodies[i]!);
            return { payload: whole.subarray(0, Math.floor(whole.length * fraction)), encoding, expected: 400 };
          }),
        // Compressed garbage, and garbage claiming compression.
        fc.tuple(encodings, fc.uint8Array({ maxLength: 4096 }), fc.boolean()).map(
          ([encoding, bytes, compress]): Framed => ({
            payload: compress ? ENCODE[encoding](Buffer.from(bytes)) : Buffer.from(bytes),
            encoding: encoding === 'identity' ? undefined : encoding,
            expected: 400,
          }),
        ),
        // Encodings we do not speak (an empty header is identity), and the empty body under each.
        fc.tuple(fc.constantFrom('zstd', 'compress', 'gzip, br', 'identity;q=0', '', ' GZIP '), fc.boolean()).map(
          ([encoding, empty]): Framed => ({
            payload: empty ? Buffer.alloc(0) : validBodies[0]!,
            encoding,
            expected: encoding === '' && !empty ? 200 : 400,
          }),
        ),
        encodings.map(
          (encoding): Framed => ({
            payload: encoding === 'identity' ? Buffer.alloc(0) : ENCODE[encoding](Buffer.alloc(0)),
            encoding,
            expected: 400,
          }),
        ),
      );
      await fc.assert(
        fc.asyncProperty(framing, contentTypes, async ({ expected, ...body }, contentType) => {
          // A Content-Type that is no media type is refused whatever the body.
          expect(await post({ ...body, contentType })).toBe(contentType === '' ? 400 : expected);
        }),
        { numRuns: 800, seed: FUZZ_SEED },
      );
    },
    SLOW_TEST_MS,
  );

  it(
    'answers invalid UTF-8 and stray bytes inside a valid JSON text with 200 or 400',
    async () => {
      const validBodies = fc.sample(validPayload, { numRuns: 20, seed: 4 }).map((payload) => serialize(payload));
      const badBytes = fc.constantFrom(
        [0xff],
        [0xfe, 0xff],
        [0xc0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xed, 0xbf, 0xbf],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe2, 0x82],
        [0x80],
        [0x00],
        [0xef, 0xbb, 0xbf],
      );
      const corrupted = fc
        .tuple(fc.nat({ max: validBodies.length - 1 }), fc.nat(), badBytes, encodings, contentTypes)
        .map(([i, at, bytes, encoding, contentType]): Body => {
          const json = validBodies[i]!;
          // Inside a string value most of the time: just after an opening quote.
          const quotes = [...json.entries()].filter(([, byte]) => byte === 0x22).map(([index]) => index + 1);
          const position = at % 3 === 0 ? at % (json.length + 1) : quotes[at % quotes.length]!;
          const body = Buffer.concat([json.subarray(0, position), Buffer.from(bytes), json.subarray(position)]);
          return { ...encoded(body, encoding), contentType };
        });
      await fc.assert(
        fc.asyncProperty(fc.array(corrupted, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (bodies) => {
          for (const status of await Promise.all(bodies.map(post))) expect([200, 400]).toContain(status);
        }),
        { numRuns: 600 / CONCURRENCY, seed: FUZZ_SEED, endOnFailure: true },
      );
    },
    SLOW_TEST_MS,
  );

  it(
    'answers 413 for a gzip bomb and a plain body over 64 MB, 200 for a large body under the cap',
    async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(64 * MB + 1, 0x20));
      expect(bomb.length).toBeLessThan(100_000);
      expect(await post({ payload: bomb, encoding: 'gzip' })).toBe(413);
      const bombOfValidJson = zlib.gzipSync(
        serialize({ collectionFrames: [], appVersion: 'x'.repeat(64 * MB), serverName: '' }),
      );
      expect(await post({ payload: bombOfValidJson, encoding: 'gzip' })).toBe(413);
      expect(await post({ payload: Buffer.alloc(64 * MB + 1, 0x20) })).toBe(413);
      const nested = new Raw('['.repeat(1_000_000) + ']'.repeat(1_000_000));
      expect(
        await post(encoded(serialize({ collectionFrames: [], appVersion: '', serverName: '', extra: nested }), 'gzip')),
      ).toBe(200);
      const large = {
        collectionFrames: [
          {
            stackTraces: [],
            metrics: [],
            traces: [
              {
                id: '0b6c1f0e-5a3d-4c1e-9f7a-2d8e4b6a1c3f',
                endpoint: 'GET /large',
                duration: 1,
                recordedAt: '2024-05-01T10:00:00Z',
                statusCode: 200,
                bodySize: 0,
                clientIP: '',
                attributes: { big: 'y'.repeat(16 * MB) },
              },
            ],
          },
        ],
        appVersion: '',
        serverName: '',
      };
      expect(await post(encoded(serialize(large), 'gzip'))).toBe(200);
    },
    SLOW_TEST_MS,
  );

  describe('regressions the fuzz found', () => {
    const frameOf = (frame: Record<string, unknown>) => ({
      collectionFrames: [{ stackTraces: [], metrics: [], traces: [], ...frame }],
      appVersion: '',
      serverName: 'regressions',
    });
    const traceOf = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      endpoint: 'GET /regression',
      duration: 1,
      recordedAt: new Date().toISOString(),
      statusCode: 200,
      bodySize: 0,
      clientIP: '',
      ...extra,
    });
    const stored = (sql: string, params: QueryParams) =>
      service.services.telemetry.query<Record<string, unknown>>(sql, params);

    it('stores instants before 2001-09-09 exactly (a short quoted integer failed the whole insert: 503)', async () => {
      // Retention would drop these rows whenever a merge runs; this service is the test's own.
      for (const table of ['endpoints', 'spans'])
        await service.services.telemetry.command(`ALTER TABLE ${table} REMOVE TTL`);
      const instants: Array<[string, string]> = [
        ['1900-01-01T00:00:00Z', '-2208988800000000000'],
        ['1969-12-31T23:59:59.999999999Z', '-1'],
        ['1970-01-01T00:00:00.000000001Z', '1'],
        ['1999-12-31T23:59:59.5Z', '946684799500000000'],
        ['2262-04-11T23:47:16.854775807Z', '9223372036854775807'],
      ];
      const traces = instants.map(([at]) =>
        traceOf(randomUUID(), { recordedAt: at, spans: [{ id: randomUUID(), name: 's', startTime: at, duration: 1 }] }),
      );
      expect(await post(encoded(serialize(frameOf({ traces })), 'gzip'))).toBe(200);
      const ids = traces.map((trace) => trace.id);
      const rows = await stored(
        `SELECT toString(e.id) AS id, toString(toUnixTimestamp64Nano(e.recorded_at)) AS at, toString(toUnixTimestamp64Nano(s.start_time)) AS start
         FROM endpoints AS e FINAL INNER JOIN spans AS s FINAL ON s.trace_id = e.id WHERE e.id IN {ids:Array(UUID)}`,
        { ids },
      );
      expect(new Map(rows.map((row) => [row.id, [row.at, row.start]]))).toEqual(
        new Map(instants.map(([, nanos], i) => [ids[i], [nanos, nanos]])),
      );
    });

    it('stores lone surrogates as U+FFFD (a lone high surrogate failed the whole insert: 503)', async () => {
      const id = randomUUID();
      expect(
        await post(
          encoded(
            serialize(
              frameOf({ traces: [traceOf(id, { endpoint: 'GET /\ud800x', attributes: { 'k\udc00': 'v\udbff' } })] }),
            ),
            'gzip',
          ),
        ),
      ).toBe(200);
      const rows = await stored('SELECT name, attributes FROM endpoints FINAL WHERE id = {id:UUID}', { id });
      expect(rows).toEqual([{ name: 'GET /\ufffdx', attributes: { 'k\ufffd': 'v\ufffd' } }]);
    });

    it('skips a record whose attributes nest too deeply to encode and keeps its siblings (was a 500)', async () => {
      const [deep, kept] = [randomUUID(), randomUUID()];
      const nested = new Raw('['.repeat(100_000) + ']'.repeat(100_000));
      expect(
        await post(
          encoded(serialize(frameOf({ traces: [traceOf(deep, { attributes: { nested } }), traceOf(kept)] })), 'gzip'),
        ),
      ).toBe(200);
      const rows = await stored('SELECT toString(id) AS trace FROM endpoints FINAL WHERE id IN {ids:Array(UUID)}', {
        ids: [deep, kept],
      });
      expect(rows).toEqual([{ trace: kept }]);
    });

    it(
      'answers a stack trace of two million `?` (the grouping regexes were quadratic on it)',
      async () => {
        const exception = {
          stackTrace: `Error: x\n${'?'.repeat(2_000_000)}`,
          recordedAt: '2024-05-01T10:00:00Z',
          isMessage: false,
        };
        const frameLines = {
          stackTrace: `Error: x\n${'.a?'.repeat(700_000)}`,
          recordedAt: '2024-05-01T10:00:00Z',
          isMessage: false,
        };
        expect(await post(encoded(serialize(frameOf({ stackTraces: [exception, frameLines] })), 'gzip'))).toBe(200);
      },
      SLOW_TEST_MS,
    );

    it('answers 400 for brotli garbage (was a 500) and for a Content-Type that is no media type (was 415)', async () => {
      expect(await post({ payload: Buffer.from('>'), encoding: 'br' })).toBe(400);
      const body = serialize(frameOf({}));
      for (const contentType of ['', 'json', 'application/', '/json', 'undefined'])
        expect(await post({ payload: body, contentType })).toBe(400);
    });
  });

  it('keeps the process memory bounded', () => {
    collectGarbage();
    const { rss, heapUsed } = process.memoryUsage();
    console.log(
      `report fuzz: resident memory grew ${((rss - rssBefore) / MB).toFixed(0)} MB, the heap after GC ${((heapUsed - heapBefore) / MB).toFixed(0)} MB`,
    );
    expect(rss - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
    expect(heapUsed - heapBefore).toBeLessThan(HEAP_GROWTH_BOUND);
  });
});
