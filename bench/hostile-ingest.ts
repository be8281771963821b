/**
 * Event-loop delay while hostile crash reports are ingested: POST /api/report through the whole
 * service (embedded engines) for a Flutter and an iOS project, whose traces go through
 * symbolication and grouping, with `perf_hooks.monitorEventLoopDelay` running.
 *
 *   node --import tsx bench/hostile-ingest.ts
 *
 * Hostile bodies are gzip JSON near the 64 MiB report cap (decompressed), made of traces whose
 * lines are the ReDoS corpus of src/ingest/redos.test.ts: a frame prefix, a run of blanks just
 * under the 4 KiB line bound and a line terminator, and lines far over the bound. The baseline is
 * bodies of the same size and shape made of ordinary Dart and iOS frames, in the same run. Last,
 * for contrast, the former Dart frame pattern alone on one 2,000-blank line.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { LIMITS } from '../src/http/limits.js';
import { startBenchService } from './service.js';
import { fmt, report } from './support.js';

const BODIES = Number(process.env.BENCH_HOSTILE_BODIES ?? 3);
/** Decompressed body size: near the report cap, leaving room for the JSON around the traces. */
const BODY_CHARS = LIMITS.reportBytes - 1024 * 1024;
const TRACE_CHARS = 256 * 1024;
const BLANKS = 4000;
const IOS_UUID = 'fb1f31bf712f3200b388cd91c37e2d71';

const DART_HEADER =
  "*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\nbuild_id: '73a2cdb8fd92d0c20b4186374bff33e3'\nos: android arch: arm64 comp: yes sim: no\n";
const IOS_HEADER = '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\nos: ios arch: arm64\n';

const HOSTILE_DART_LINES = [
  `#0 abs 1${' '.repeat(BLANKS)}a\rb`,
  `#0 abs 1${'\t'.repeat(BLANKS)}a\u2028b`,
  `#0 abs 1 virt 2${' '.repeat(BLANKS)}a\rb`,
  `#0 abs ${'a1'.repeat(BLANKS / 2)}!`,
  `#0 abs 1${' '.repeat(100 * BLANKS)}a\rb`,
];
const HOSTILE_IOS_LINES = [
  `#0 ${IOS_UUID} 0x1${' '.repeat(BLANKS)}a\rb`,
  `#0 ${IOS_UUID} 0x1${'\t'.repeat(BLANKS)}a\u2029b`,
  `#0 ${IOS_UUID} ${'0x'.repeat(BLANKS / 2)}`,
  `${'*** '.repeat(BLANKS / 4)}x`,
  `#0 ${IOS_UUID} 0x1${' '.repeat(100 * BLANKS)}a\rb`,
];
const ORDINARY_DART_LINES = [
  '#00 abs 0000007a1c5ee6ab virt 000000000030a6ab _kDartIsolateSnapshotInstructions+0x1e1dab',
];
const ORDINARY_IOS_LINES = [`#00 ${IOS_UUID} 0x41a3 ShopApp`];

function trace(header: string, lines: readonly string[]): string {
  let text = `Bad state: card declined\n${header}`;
  for (let i = 0; text.length < TRACE_CHARS; i++) text += `${lines[i % lines.length]}\n`;
  return text;
}

function body(header: string, lines: readonly string[]): Buffer {
  const stackTrace = trace(header, lines);
  const count = Math.floor(BODY_CHARS / stackTrace.length);
  const recordedAt = new Date().toISOString();
  const stackTraces = Array.from({ length: count }, () => ({ stackTrace, recordedAt, isMessage: false }));
  return gzipSync(
    JSON.stringify({
      collectionFrames: [{ stackTraces, metrics: [], traces: [] }],
      appVersion: '1.0.0',
      serverName: '',
    }),
  );
}

async function main(): Promise<void> {
  const { app, owner, close } = await startBenchService('hostile-ingest');
  const createProject = async (framework: string): Promise<string> => {
    const created = await app.inject({
      method: 'POST',
      url: `/api/projects?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { name: `Bench ${framework}`, framework },
    });
    if (created.statusCode !== 201) throw new Error(`project create answered ${created.statusCode}: ${created.body}`);
    return (created.json() as { token: string }).token;
  };
  const flutterToken = await createProject('flutter');
  const iosToken = await createProject('ios');

  const post = async (token: string, gzipped: Buffer): Promise<void> => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/report',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipped,
    });
    if (response.statusCode !== 200) throw new Error(`report answered ${response.statusCode}: ${response.body}`);
  };

  /** Posts the bodies one after the other while the event loop's delay is sampled every 10 ms. */
  const measure = async (bodies: ReadonlyArray<[string, Buffer]>) => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const started = performance.now();
    for (const [token, gzipped] of bodies) await post(token, gzipped);
    const seconds = (performance.now() - started) / 1000;
    histogram.disable();
    return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, seconds };
  };
  const bodiesOf = (dartLines: readonly string[], iosLines: readonly string[]): Array<[string, Buffer]> => {
    const dart = body(DART_HEADER, dartLines);
    const ios = body(IOS_HEADER, iosLines);
    return Array.from(
      { length: BODIES },
      (): Array<[string, Buffer]> => [
        [flutterToken, dart],
        [iosToken, ios],
      ],
    ).flat();
  };

  const ordinaryBodies = bodiesOf(ORDINARY_DART_LINES, ORDINARY_IOS_LINES);
  const hostileBodies = bodiesOf(HOSTILE_DART_LINES, HOSTILE_IOS_LINES);
  await measure(ordinaryBodies.slice(0, 2));
  const ordinary = await measure(ordinaryBodies);
  const hostile = await measure(hostileBodies);

  const FORMER_DART_FRAME = /^\s*#\d+\s+abs\s+[0-9a-fA-F]+(?:\s+virt\s+[0-9a-fA-F]+)?(?:\s+(.*?))?\s*$/;
  const formerStarted = performance.now();
  FORMER_DART_FRAME.test(`#0 abs 1${' '.repeat(2000)}a\rb`);
  const formerMs = performance.now() - formerStarted;

  await close();

  const sizes = (bodies: ReadonlyArray<[string, Buffer]>) =>
    `${fmt(BODY_CHARS / 1e6, 1)} MB JSON, ${fmt(bodies[1]![1].length / 1e3)} KB gzip (iOS)`;
  const delay = (run: { maxMs: number; p99Ms: number; seconds: number }) =>
    `max ${fmt(run.maxMs)} ms, p99 ${fmt(run.p99Ms)} ms (${fmt(run.seconds, 1)} s for ${BODIES * 2} bodies)`;
  report('Event-loop delay under hostile report payloads (POST /api/report, Flutter + iOS)', [
    [
      'bodies',
      `${BODIES} Flutter + ${BODIES} iOS, one at a time; ${sizes(hostileBodies)}; traces of ${fmt(TRACE_CHARS / 1024)} KiB`,
    ],
    ['baseline: ordinary frames', delay(ordinary)],
    ['hostile: ReDoS corpus lines', delay(hostile)],
    [
      'former Dart frame pattern, one line',
      `${fmt(formerMs)} ms on \`#0 abs 1\` + 2,000 blanks + \`a\\rb\` (cubic: ~8x per doubling)`,
    ],
  ]);
}

await main();
