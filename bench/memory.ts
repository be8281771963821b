/**
 * What each part of the embedded service holds in memory: every component is started alone in a
 * fresh process (`node --import tsx bench/memory.ts <component> <folder>`), left idle, and its
 * resident memory read from /proc — now, its peak (VmHWM), and anonymous against file-backed
 * pages (the chDB library's code is file-backed: the kernel can drop it under pressure). The
 * whole service's first and warm start are bench/startup.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processMemory, report } from './support.js';

/** How long a component sits idle before its memory is read (lets PGlite's and V8's lazy frees land). */
const SETTLE_MS = 3000;

const COMPONENTS: Record<string, { label: string; run: (folder: string) => Promise<unknown> }> = {
  node: { label: 'Node.js and tsx alone', run: async () => undefined },
  modules: {
    label: 'the service code loaded (app, services), no engine opened',
    run: async () => Promise.all([import('../src/server/app.js'), import('../src/server/services.js')]),
  },
  'chdb-library': { label: 'chDB library loaded (`import "chdb"`)', run: async () => import('chdb') },
  'chdb-session': {
    label: 'chDB, one session and SELECT 1, default settings',
    run: async (folder) => {
      const { Session } = await import('chdb');
      return new Session(folder).query('SELECT 1');
    },
  },
  'chdb-engine': {
    label: 'telemetry engine: chDB as the service opens it (9 connections), migrated',
    run: async (folder) => {
      const { loadConfig } = await import('../src/config.js');
      const { openTelemetryEngine } = await import('../src/store/telemetry/index.js');
      const { migrateTelemetry } = await import('../src/store/telemetry/migrate.js');
      const engine = await openTelemetryEngine(loadConfig({ DATA_DIR: folder }).telemetry);
      return migrateTelemetry(engine);
    },
  },
  'pglite-first-in-process': {
    label: 'PGlite first initialisation of an empty folder in this process (PGlite defaults)',
    run: async (folder) => {
      const { PGlite } = await import('@electric-sql/pglite');
      return PGlite.create({ dataDir: folder });
    },
  },
  'meta-first': { label: 'metadata store on an empty folder as the service opens it, migrated', run: openMeta },
  'meta-warm': { label: 'metadata store reopened (the folder of meta-first), migrated', run: openMeta },
};

async function openMeta(folder: string): Promise<unknown> {
  const { loadConfig } = await import('../src/config.js');
  const { openMetaDb } = await import('../src/store/meta/index.js');
  return openMetaDb(loadConfig({ DATA_DIR: folder }).meta);
}

const [component, folder] = process.argv.slice(2);
if (component !== undefined) {
  // Child: run one component, settle, print its memory as JSON.
  await COMPONENTS[component]!.run(folder!);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  process.stdout.write(`${JSON.stringify(processMemory())}\n`);
  process.exit(0);
}

async function measure(name: string, dir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/memory.ts', name, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`${name} exited ${code}: ${out}`);
  const m = JSON.parse(line) as { rss: number; peak: number; anon: number; file: number };
  return `idle ${m.rss} MB (${m.anon} anonymous, ${m.file} file-backed), peak ${m.peak} MB`;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-memory-'));
const lines: Array<[string, string]> = [];
try {
  // meta-warm reopens the folder meta-first made; every other component gets its own.
  for (const name of Object.keys(COMPONENTS)) {
    const dir = path.join(root, name === 'meta-warm' ? 'meta-first' : name);
    lines.push([`${name}: ${COMPONENTS[name]!.label}`, await measure(name, dir)]);
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
report(`memory by component, each alone in a fresh process, ${SETTLE_MS} ms after it is up`, lines);
