/** Rewrites packages/api-client/src/schema.d.ts from the routes' current OpenAPI document. */
import fs from 'node:fs';
import { SCHEMA_FILE, currentOpenApiDocument, schemaSource } from './api-client.js';

const source = await schemaSource(await currentOpenApiDocument());
fs.writeFileSync(SCHEMA_FILE, source);
console.log(`wrote ${SCHEMA_FILE} (${source.length} characters)`);
