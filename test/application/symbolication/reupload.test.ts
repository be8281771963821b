/**
 * Re-uploading a build's symbols with other content: every process's cached table is checked
 * against the symbol file row within a minute (the service clock moves here), the table is
 * rebuilt from the new upload, and the table built from the old one is deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWithFramework, reportCrash, uploadDartSymbolFile, type Project } from '../../support/project-data.js';
import { startTestService, type TestService } from '../../support/service.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
// Dart symbols without a build id: the upload's debug_id names the build.
const FILE = fs.readFileSync(path.join(FIXTURES, 'dart/ios-arm64-nobuildid/app.ios-arm64.symbols'));
const DEBUG_ID = '092e6d78257634f8bc7949d8d656af13';
const TRACE = fs.readFileSync(path.join(FIXTURES, 'traces/dart-ios-arm64-nobuildid/crash.txt'), 'utf8');

describe('re-uploading the symbols of a build', () => {
  let service: TestService;
  let project: Project;
  let clock = Date.now();

  const upload = (bytes: Buffer) =>
    uploadDartSymbolFile(service, project.uploadToken, {
      name: 'app.ios-arm64.symbols',
      bytes,
      arch: 'arm64',
      debugId: DEBUG_ID,
    });
  const crash = async () => (await reportCrash(service, project, { stackTrace: TRACE })).stack_trace;
  const tables = async () => (await service.services.objects.list(`symboltables/v1/${project.id}/`)).keys;

  beforeAll(async () => {
    service = await startTestService({}, { now: () => clock });
    project = await projectWithFramework(service, 'flutter');
  });
  afterAll(async () => service?.close());

  it('rebuilds the table from the new content within the revalidation time, and deletes the old table', async () => {
    await upload(FILE);
    const first = await crash();
    expect(first).not.toBe(TRACE);
    const [oldTable] = await tables();
    expect(await tables()).toEqual([oldTable]);

    // The same symbols with other bytes (trailing padding): another content hash.
    await upload(Buffer.concat([FILE, Buffer.alloc(64)]));
    expect(await crash()).toBe(first);
    expect(await tables()).toEqual([oldTable]);

    clock += 61_000;
    expect(await crash()).toBe(first);
    const rebuilt = await tables();
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]).not.toBe(oldTable);

    // Unchanged content: the cached table is kept, nothing is rebuilt.
    clock += 61_000;
    expect(await crash()).toBe(first);
    expect(await tables()).toEqual(rebuilt);
  });
});
