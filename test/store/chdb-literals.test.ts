/**
 * chDB statements go out with their parameters rendered as literals (src/store/telemetry/
 * literals.ts) so they skip the binding's process-wide queue. Checked here on real chDB: a
 * rendered statement answers exactly what ClickHouse's own binding answers for every parameter
 * type the queries use, hostile values cannot change a statement's shape, and reads now overlap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChdb } from '../../src/store/telemetry/chdb.js';
import type { TelemetryEngine } from '../../src/store/telemetry/engine.js';
import { renderParameters } from '../../src/store/telemetry/literals.js';
import { migrateTelemetry } from '../../src/store/telemetry/migrate.js';
import { encodeRows, ENDPOINT_ROWS } from '../../src/store/telemetry/rows.js';
import { endpoint } from './telemetry-engine.contract.js';

let dir: string;
let engine: TelemetryEngine;
/** A second connection to the same folder, for the statements bound by chDB itself. */
let session: Session;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-chdb-literals-'));
  engine = await openChdb({ path: dir, database: 'literals' });
  session = new Session(dir);
  await engine.command('CREATE TABLE kept (n UInt8) ENGINE = Memory');
});
afterAll(async () => {
  session?.close();
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A whole double beyond 2^53 (a Float64 such as 1e20) as the text ClickHouse's HTTP client sends
 * for it; chDB's binding refuses the number itself.
 */
const asSent = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) ? String(value) : value;

/** Both ways of sending `sql`: the answer (JSONEachRow text) or the failure's message. */
async function bothWays(sql: string, params: Record<string, unknown>): Promise<{ bound: string; rendered: string }> {
  const answer = (run: () => Promise<{ text(): string }>) =>
    run().then(
      (r) => r.text(),
      (e: Error) => `failed: ${e.message}`,
    );
  const sent = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, asSent(value)]));
  return {
    bound: await answer(() => session.queryBindAsync(sql, sent as Record<string, never>, { format: 'JSONEachRow' })),
    rendered: await answer(() => session.queryAsync(renderParameters(sql, params), { format: 'JSONEachRow' })),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `YYYY-MM-DD hh:mm:ss` of a Date, in UTC. */
const dateTimeText = (d: Date) =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
const dates = (from: string, to: string) => fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true });

const NASTY = [
  "'",
  '\\',
  "\\'",
  "''",
  '\n',
  '\r',
  '\t',
  '\0',
  '\x1f',
  '\x7f',
  '{x:String}',
  '{s:String}',
  '*/',
  '/*',
  '--',
  '#',
  '`',
  '"',
  '$$',
  'é',
  '😀',
  '\uD800',
  '\uDFFF',
  '\u2028',
  '\uFEFF',
  ';',
];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc
    .array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 4 })), { maxLength: 12 })
    .map((parts) => parts.join('')),
);
const bits = (signed: boolean, n: number) => {
  const span = 1n << BigInt(signed ? n - 1 : n);
  const min = signed ? -span : 0n;
  const max = span - 1n;
  return fc.oneof(fc.constantFrom(min, max, 0n), fc.bigInt({ min, max }));
};
/** An integer as the queries pass one: a number where it is exact, else a bigint or (alone) its text. */
const integer = (signed: boolean, n: number, asText = true) =>
  fc
    .tuple(bits(signed, n), fc.nat(2))
    .map(([v, form]) =>
      form === 0 && Number.isSafeInteger(Number(v)) ? Number(v) : form === 1 && asText ? v.toString() : v,
    );
const uuid = fc.tuple(fc.uuid({ version: [1, 4, 7] }), fc.boolean()).map(([u, upper]) => (upper ? u.toUpperCase() : u));

const VALUES = {
  String: text,
  UUID: uuid,
  UInt8: integer(false, 8),
  UInt32: integer(false, 32),
  Int32: integer(true, 32),
  Int64: integer(true, 64),
  UInt64: integer(false, 64),
  Float64: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  ),
  Date: dates('1970-01-01', '2149-06-06').map((d) => dateTimeText(d).slice(0, 10)),
  DateTime: dates('1970-01-01', '2106-02-07').map(dateTimeText),
  'DateTime64(3)': fc
    .tuple(dates('1900-01-01', '2262-04-11'), fc.integer({ min: 0, max: 999 }))
    .map(([d, ms]) => `${dateTimeText(d)}.${pad(ms, 3)}`),
  'DateTime64(9)': fc
    .tuple(dates('1900-01-01', '2262-04-11'), fc.integer({ min: 0, max: 999_999_999 }))
    .map(([d, ns]) => `${dateTimeText(d)}.${pad(ns, 9)}`),
  'Array(String)': fc.array(text, { maxLength: 5 }),
  'Array(UUID)': fc.array(uuid, { maxLength: 5 }),
  // chDB's binding reads text in an integer array as a quoted string, and refuses it.
  'Array(UInt32)': fc.array(integer(false, 32, false), { maxLength: 5 }),
  'Array(Int64)': fc.array(integer(true, 64, false), { maxLength: 5 }),
  'Array(Array(String))': fc.array(fc.array(text, { maxLength: 3 }), { maxLength: 3 }),
} as const;

describe('literals rendered for chDB', () => {
  it('every type answers exactly what ClickHouse binding answers', async () => {
    const names = Object.keys(VALUES) as Array<keyof typeof VALUES>;
    // Each value is selected, typed, and compared in a WHERE clause, as the queries use them.
    const sql = `SELECT ${names.map((type, i) => `{p${i}:${type}} AS v${i}, toTypeName({p${i}:${type}}) AS t${i}`).join(', ')}
                   FROM numbers(2) WHERE ${names.map((type, i) => `{p${i}:${type}} = {p${i}:${type}}`).join(' AND ')}`;
    await fc.assert(
      fc.asyncProperty(fc.record(VALUES), async (values) => {
        const params = Object.fromEntries(names.map((type, i) => [`p${i}`, values[type]]));
        const { bound, rendered } = await bothWays(sql, params);
        expect(bound).not.toMatch(/^failed/);
        expect(rendered).toBe(bound);
      }),
      { numRuns: 150 },
    );
  });

  it('hostile text stays one value: the statement keeps its shape', async () => {
    const corpus = [
      "'; DROP TABLE kept; --",
      "\\' OR 1=1 --",
      "' OR '1'='1",
      "x' UNION ALL SELECT name FROM system.tables --",
      '\\',
      "\\\\' OR 1=1 --",
      '{w:String}',
      "{w:String}' OR 1=1 --",
      '*/ OR 1=1 /*',
      "\0' OR 1=1 --",
      "\n' OR 1=1\n--",
      '$$ OR 1=1 $$',
      "') OR ('1'='1",
      "\uD800' OR 1=1 --",
    ];
    for (const hostile of corpus) {
      const params = { v: hostile, w: 'other', list: [hostile, hostile] };
      const sql = `SELECT count() AS n, groupArray(toString(number)) AS matched, {v:String} AS v, {list:Array(String)} AS list
                     FROM numbers(10) WHERE toString(number) = {v:String} OR has({list:Array(String)}, toString(number))`;
      const { bound, rendered } = await bothWays(sql, params);
      expect(rendered, hostile).toBe(bound);
      const expected = hostile.replace(/\p{Surrogate}/gu, '\uFFFD');
      expect(JSON.parse(rendered), hostile).toEqual({ n: 0, matched: [], v: expected, list: [expected, expected] });
      // Hostile text where a UUID belongs fails the cast; it never widens the match.
      await expect(
        engine.query('SELECT count() AS n FROM numbers(10) WHERE generateUUIDv4(number) = {id:UUID}', { id: hostile }),
      ).rejects.toThrow();
    }
    expect(await engine.query('EXISTS TABLE kept')).toEqual([{ result: 1 }]);
  });

  it('a placeholder inside quotes or a comment of the statement stays text, as the server leaves it', async () => {
    const sql = "SELECT '{v:String}' AS a /* {v:String} */, {v:String} AS b -- {v:String}\n";
    const { bound, rendered } = await bothWays(sql, { v: "x'*/" });
    expect(rendered).toBe(bound);
    expect(JSON.parse(rendered)).toEqual({ a: '{v:String}', b: "x'*/" });
  });
});

describe('chDB engine concurrency', () => {
  it('a read, a ping and an insert complete while a slow parameterized read is still running', async () => {
    await migrateTelemetry(engine);
    let slowDone = false;
    // About 3 s: one row per block, 0.5 s each.
    const slow = engine
      .query(
        'SELECT /* slow-read */ sum(sleepEachRow(0.5)) AS s FROM numbers({rows:UInt32})',
        { rows: 6 },
        { max_block_size: 1 },
      )
      .finally(() => {
        slowDone = true;
      });
    // Each look is itself a parameterized read; it finds the slow read in flight.
    let running = 0;
    while (running === 0 && !slowDone) {
      const [row] = await engine.query<{ n: number }>(
        "SELECT count() AS n FROM system.processes WHERE position(query, {marker:String}) > 0 AND query NOT LIKE '%system.processes%'",
        { marker: '/* slow-read */' },
      );
      running = row!.n;
    }
    expect(running).toBe(1);
    await engine.ping();
    await engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, [endpoint()]));
    expect(slowDone).toBe(false);
    await expect(slow).resolves.toEqual([{ s: 0 }]);
  });
});
