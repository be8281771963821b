/**
 * The API client's types come from the service's own OpenAPI document, built in-process (the
 * real route assembly on embedded engines in a throw-away data folder), so regenerating needs no
 * running server and the committed file can be compared with what the code declares today.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { buildApps } from '../src/server/app.js';
import { openServices } from '../src/server/services.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../packages/api-client/src/schema.d.ts', import.meta.url));

const HEADER =
  "// Generated from the service's OpenAPI document by `npm run generate:api-client`; do not edit.\n" +
  '// test/api/api-client.test.ts fails when this file differs from what the routes declare.\n\n';

export async function currentOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-openapi-'));
  const services = await openServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  try {
    const { app } = await buildApps(services);
    try {
      const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
      if (response.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${response.statusCode}`);
      return response.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function schemaSource(document: Record<string, unknown>): Promise<string> {
  // openapi-typescript's types want its own document type; the service's document is that shape.
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
  return HEADER + astToString(ast);
}
