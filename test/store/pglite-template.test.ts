/**
 * An empty PGlite folder is a copy of the build's template (no initdb child at the first start),
 * or initialised by initdb in a child when there is no template for the installed PGlite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMetaDb } from '../../src/store/meta/index.js';
import { DEFAULT_SHARED_BUFFERS_MB, engineOptions } from '../../src/store/meta/pglite.js';
import { buildPgliteTemplate, pgliteTemplateFolder } from '../../src/store/meta/pglite-template.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-pglite-template-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const settings = engineOptions(DEFAULT_SHARED_BUFFERS_MB);

/** PostgreSQL's system identifier: set by initdb, so equal only in copies of one initialised folder. */
async function systemIdentifier(folder: string, templates: string): Promise<string> {
  const db = await openMetaDb({ kind: 'pglite', path: folder, templates });
  try {
    const [row] = await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()');
    expect(await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).not.toEqual([{ n: 0 }]);
    return row?.id ?? '';
  } finally {
    await db.close();
  }
}

describe('PGlite template', () => {
  it('is made once per PGlite version, replacing other versions and unfinished builds', async () => {
    const templates = path.join(root, 'made');
    const template = pgliteTemplateFolder(templates);
    fs.mkdirSync(`${template}.building-99999/base`, { recursive: true }); // another build, still running
    fs.mkdirSync(path.join(templates, 'pglite-0.0.1', 'base'), { recursive: true }); // an older PGlite's
    expect(await buildPgliteTemplate(settings, templates)).toBe(true);
    expect(fs.existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(templates, 'pglite-0.0.1'))).toBe(false);
    expect(fs.readdirSync(templates).filter((name) => name.includes('.building-') && !name.endsWith('-99999'))).toEqual(
      [],
    );
    expect(await buildPgliteTemplate(settings, templates)).toBe(false);
  }, 120_000);

  it('is copied into every empty folder: two folders share its system identifier, and each opens and migrates', async () => {
    const templates = path.join(root, 'made');
    const first = await systemIdentifier(path.join(root, 'from-template-1'), templates);
    const second = await systemIdentifier(path.join(root, 'from-template-2'), templates);
    expect(first).toMatch(/^\d+$/);
    expect(second).toBe(first);
    // The copy left the template as it was: a third folder gets the same identity again.
    expect(await systemIdentifier(path.join(root, 'from-template-3'), templates)).toBe(first);
  }, 180_000);

  it('without a template for the installed PGlite, initdb runs in a child: each folder its own identity', async () => {
    const templates = path.join(root, 'none');
    const first = await systemIdentifier(path.join(root, 'initdb-1'), templates);
    const second = await systemIdentifier(path.join(root, 'initdb-2'), templates);
    expect(first).toMatch(/^\d+$/);
    expect(second).not.toBe(first);
    expect(fs.existsSync(templates)).toBe(false);
  }, 180_000);
});
