// Bundles the CLI into one ESM file. The private @sightline/api-client and @sightline/stack-frames
// are inlined (they are not published); every runtime dependency stays external and is installed
// from package.json.
// Usage: node build.mjs [outdir]   (default dist/; tests build into their own folder)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const outdir = path.resolve(process.argv[2] ?? path.join(here, 'dist'));

await build({
  entryPoints: { 'sightline-cli': path.join(here, 'src/main.ts') },
  outdir,
  // The MCP server (and its SDK) is a chunk loaded by `mcp` only: every other command starts faster.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  external: Object.keys(manifest.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]),
  define: { SIGHTLINE_CLI_VERSION: JSON.stringify(manifest.version) },
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
