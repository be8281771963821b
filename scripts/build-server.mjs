// Compiles the service's TypeScript (src/) into plain JavaScript in dist/, one file per source
// file so the layout — and every path a module resolves from import.meta.url (migrations, worker
// scripts, ../web/dist) — stays the same. The service runs from dist/ (bin/sightline.mjs): tsx's
// loader thread and on-the-fly compilation cost ~25 MB resident (docs/PERFORMANCE.md).
// Files that are not TypeScript (SQL migrations, .mjs worker scripts, JSON) are copied as they are.
// Then, once per installed PGlite version, the template data folder that the service copies into
// an empty PGlite folder instead of running initdb at its first start (src/store/meta/pglite-template.ts).
// Usage: node scripts/build-server.mjs   (npm run build:server; prepare and npm start run it)
import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const outdir = path.join(root, 'dist');
const isTypeScript = (file) => file.endsWith('.ts');

// dist/ is overwritten in place, not emptied first: a service or suite running from it meanwhile
// keeps finding the modules it imports lazily.
await build({
  entryPoints: readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => isTypeScript(file) && !file.endsWith('.test.ts'))
    .map((file) => path.join(src, file)),
  outdir,
  outbase: src,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // JSON modules keep their `with { type: 'json' }`, which Node requires.
  supported: { 'import-attributes': true },
  logLevel: 'warning',
});
cpSync(src, outdir, {
  recursive: true,
  filter: (from) => !isTypeScript(from),
});

const { buildPgliteTemplate, pgliteTemplateFolder } = await import('../dist/store/meta/pglite-template.js');
const { engineOptions, DEFAULT_SHARED_BUFFERS_MB } = await import('../dist/store/meta/pglite.js');
const started = performance.now();
if (await buildPgliteTemplate(engineOptions(DEFAULT_SHARED_BUFFERS_MB))) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `made ${path.relative(root, pgliteTemplateFolder())} (PGlite's initdb, once per version) in ${seconds} s`,
  );
}
