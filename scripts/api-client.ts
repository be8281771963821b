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
import { FRAMEWORKS } from '../src/core/projects.js';
import { buildApps } from '../src/server/app.js';
import { openServices } from '../src/server/services.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../packages/api-client/src/schema.d.ts', import.meta.url));
export const VALUES_FILE = fileURLToPath(new URL('../packages/api-client/src/values.js', import.meta.url));
export const VALUES_TYPES_FILE = fileURLToPath(new URL('../packages/api-client/src/values.d.ts', import.meta.url));

const HEADER =
  "// Generated from the service's OpenAPI document by `npm run generate:api-client`; do not edit.\n" +
  '// test/packages/api-client.test.ts fails when this file differs from what the routes declare.\n\n';

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

/**
 * Value lists the service accepts where its OpenAPI document says only "string" (a project's
 * framework: the database accepts any slug, so answers cannot promise the list), for clients that
 * offer them at run time. Written as plain ESM and its declaration, like index.js.
 */
export function valuesSources(): { js: string; types: string } {
  const list = JSON.stringify(FRAMEWORKS);
  const header =
    "// Generated from the service's own lists by `npm run generate:api-client`; do not edit.\n" +
    '// test/packages/api-client.test.ts fails when this file differs from them.\n\n';
  const doc = '/** The frameworks a project may be created with or changed to (src/core/projects.ts). */\n';
  return {
    js: `${header}${doc}export const FRAMEWORKS = Object.freeze(${list});\n`,
    types: `${header}${doc}export declare const FRAMEWORKS: readonly ${list.replace(/,/g, ', ')};\nexport type Framework = (typeof FRAMEWORKS)[number];\n`,
  };
}
