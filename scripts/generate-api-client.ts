/** Rewrites packages/api-client/src/schema.d.ts from the routes' current OpenAPI document, and values.js. */
import fs from 'node:fs';
import {
  SCHEMA_FILE,
  VALUES_FILE,
  VALUES_TYPES_FILE,
  currentOpenApiDocument,
  schemaSource,
  valuesSources,
} from './api-client.js';

const source = await schemaSource(await currentOpenApiDocument());
fs.writeFileSync(SCHEMA_FILE, source);
console.log(`wrote ${SCHEMA_FILE} (${source.length} characters)`);
const values = valuesSources();
fs.writeFileSync(VALUES_FILE, values.js);
fs.writeFileSync(VALUES_TYPES_FILE, values.types);
console.log(`wrote ${VALUES_FILE} and its declaration`);
