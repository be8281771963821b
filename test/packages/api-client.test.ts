/**
 * packages/api-client's types are generated from the OpenAPI document: a route whose schema
 * changed without `npm run generate:api-client` fails here, before the dashboard or the CLI
 * calls it with the old shape.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_FILE,
  VALUES_FILE,
  VALUES_TYPES_FILE,
  currentOpenApiDocument,
  schemaSource,
  valuesSources,
} from '../../scripts/api-client.js';
import { FRAMEWORKS as SERVICE_FRAMEWORKS } from '../../src/core/projects.js';
import { FRAMEWORKS } from '../../packages/api-client/src/index.js';

describe('generated API client', () => {
  it('matches the routes as they are declared today', async () => {
    const document = await currentOpenApiDocument();
    expect(Object.keys(document.paths as object)).toContain('/api/projects');
    const expected = await schemaSource(document);
    const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');
    // One assertion with a short message instead of a 150 kB diff.
    expect(
      committed === expected,
      'packages/api-client/src/schema.d.ts is stale: run `npm run generate:api-client` and commit it',
    ).toBe(true);
  });

  it("carries the service's framework list as generated, and exports it at run time", () => {
    const expected = valuesSources();
    const stale = 'packages/api-client/src/values.js is stale: run `npm run generate:api-client` and commit it';
    expect(fs.readFileSync(VALUES_FILE, 'utf8'), stale).toBe(expected.js);
    expect(fs.readFileSync(VALUES_TYPES_FILE, 'utf8'), stale).toBe(expected.types);
    expect([...FRAMEWORKS]).toEqual([...SERVICE_FRAMEWORKS]);
    expect(Object.isFrozen(FRAMEWORKS)).toBe(true);
  });
});
