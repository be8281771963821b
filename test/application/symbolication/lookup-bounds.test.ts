/**
 * Symbolication lookups are bounded per request: a report naming 20,000 random image UUIDs costs
 * one symbol-file query, remembered misses count against the table cache's bound and are
 * evicted like tables, and a real crash in the same report is still symbolicated.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BUILDS_PER_REQUEST } from '../../../src/application/symbolication/index.js';
import { ENTRY_BYTES } from '../../../src/application/symbolication/bounded-cache.js';
import { uploadSymbolFile, uploadTokenOf } from '../../support/project-data.js';
import { postGzippedReport, registerUser, startTestService, type TestService } from '../../support/service.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
const DSYM = 'ios/ios-arm64/ShopApp.app.dSYM/Contents/Resources/DWARF/ShopApp';
const CRASH = fs.readFileSync(path.join(FIXTURES, 'traces/ios-arm64/sigsegv.txt'), 'utf8');
const SYMBOLICATED = fs.readFileSync(path.join(FIXTURES, 'traces/ios-arm64/sigsegv.expected.txt'), 'utf8');
const CACHE_BYTES = 1024 * 1024;
const RANDOM_UUIDS = 20_000;
const RANDOM_TRACES = 20;

/** An iOS crash whose frames each name another random image. */
function randomImagesCrash(frames: number): string {
  const lines = Array.from(
    { length: frames },
    (_, i) => `#${String(i).padStart(2, '0')} ${randomBytes(16).toString('hex')} 0x41a3 Img${i}`,
  );
  return `Fatal Signal SIGSEGV (11)\n*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\nos: ios arch: arm64\n${lines.join('\n')}\n`;
}

describe('symbolication lookups of a report naming thousands of builds', () => {
  let service: TestService;
  let project: { id: string; token: string };
  let symbolFileQueries = 0;

  beforeAll(async () => {
    service = await startTestService({ SYMBOL_TABLE_CACHE_MB: String(CACHE_BYTES / 1024 / 1024) });
    const owner = await registerUser(service.app);
    project = owner.project;
    await service.services.meta.query("UPDATE projects SET framework = 'ios' WHERE id = $1", [project.id]);
    await uploadSymbolFile(service, await uploadTokenOf(service, project.id), {
      name: 'ShopApp',
      bytes: fs.readFileSync(path.join(FIXTURES, DSYM)),
    });
    // Counts the symbol-file lookups on the real metadata store.
    const meta = service.services.meta;
    const query = meta.query.bind(meta);
    meta.query = (sql, params) => {
      if (sql.includes('FROM symbol_files')) symbolFileQueries++;
      return query(sql, params);
    };
  });
  afterAll(async () => service?.close());

  it('looks the builds up in one query, keeps the cache within its bound, and still resolves the real crash', async () => {
    const reports = 10;
    for (let report = 0; report < reports; report++) {
      const crashId = randomUUID();
      const stackTraces = [
        ...Array.from({ length: RANDOM_TRACES }, () => ({
          stackTrace: randomImagesCrash(RANDOM_UUIDS / RANDOM_TRACES),
          recordedAt: new Date().toISOString(),
          isMessage: false,
        })),
        { traceId: crashId, stackTrace: CRASH, recordedAt: new Date().toISOString(), isMessage: false },
      ];
      const before = symbolFileQueries;
      const response = await postGzippedReport(
        service.app,
        project.token,
        zlib.gzipSync(JSON.stringify({ appVersion: '1.0.0', serverName: '', collectionFrames: [{ stackTraces }] })),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(symbolFileQueries - before).toBe(1);

      const [stored] = await service.services.telemetry.query<{ stack_trace: string }>(
        'SELECT stack_trace FROM exceptions FINAL WHERE project_id = {p:UUID} AND trace_id = {t:UUID}',
        { p: project.id, t: crashId },
      );
      expect(stored!.stack_trace).toBe(SYMBOLICATED);
    }
    const { entries, bytes } = service.services.symbolTables.usage;
    expect(bytes).toBeLessThanOrEqual(CACHE_BYTES);
    expect(entries).toBeLessThanOrEqual(CACHE_BYTES / ENTRY_BYTES);
    // More misses were looked up than the bound holds: some were evicted.
    expect(reports * (MAX_BUILDS_PER_REQUEST - 2)).toBeGreaterThan(entries);
  });
});
