/**
 * POST /api/sourcemaps/upload: JavaScript source maps (and optionally their .js files, which say
 * which map is theirs and may carry a debug id), authenticated by the project's source-map token
 * only. The statuses, limits and admission rules are the symbol upload's; a file that is not a
 * usable map is skipped with its reason, and never takes the good ones down.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SOURCE_MAP_TOKEN } from '../../core/tokens.js';
import { errorAnswer } from '../answers.js';
import { badRequest } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import { upsertSourceMapFile } from '../../store/meta/repositories/source-map-files.js';
import type { UploadProject } from '../../store/meta/repositories/upload-projects.js';
import { inspectSourceMap, normalizeJsDebugId, SourceMapError, uploadedPath } from '../../symbols/index.js';
import type { SpooledFile } from '../uploads/spool.js';
import { registerUploadRoute } from '../uploads/upload-route.js';

export const sourceMapObjectKey = (projectId: string, sha256: string): string =>
  `sourcemaps/${projectId}/${sha256}.map`;

/** The comments a bundler or sentry-cli appends sit in the last lines of a .js file. */
const JS_TAIL_BYTES = 8192;
const MAX_RELEASE = 200;
/** A map is parsed whole to check it (a large app's maps are tens of MB); a larger one is skipped, not parsed. */
export const MAX_MAP_BYTES = 100 * 1024 * 1024;
const MAX_URL_PREFIX = 512;

const UPLOAD_SCHEMA = {
  summary: 'Upload JavaScript source maps (and optionally their .js files) of a release',
  description: [
    "`Authorization: Bearer <source-map token>` (the project's source-map token, shown on its Connection page, is the only credential accepted; anything else is 401 with an empty body).",
    'multipart/form-data: `files` (repeatable) holds `.map` files and optionally their `.js` files, named by their path in the build folder (`assets/main.4f3a.js.map`);',
    '`release` is the app version the clients report (appVersion on the report route, service.version on OTLP); `urlPrefix` (default `~/`, where `~` stands for any origin) is where the files are served, e.g. `~/assets/` or `/srv/app/dist/` for Node.',
    'A map belongs to the `.js` of the upload whose `//# sourceMappingURL=` names it, else to its `file` field, else to its name without `.map`.',
    'A map with `debugId` (or `debug_id`), or whose `.js` carries `//# debugId=`, is matched by that id whatever the release, when the client sends the `sightline.debug_ids` attribute; it needs no release.',
    'Re-uploading a release is idempotent. Files that are not usable maps are skipped with their reason; the others are stored.',
    "Limits and statuses are the symbol upload's: 200 MB a file (400), 250 MB a request (413), about 1000 parts (422), 503 with Retry-After when too many uploads are in flight.",
  ].join(' '),
  consumes: ['multipart/form-data'],
  security: [{ bearer: [] }],
  response: {
    200: {
      type: 'object',
      required: ['uploaded', 'skipped'],
      properties: {
        uploaded: {
          type: 'integer',
          description: 'files accepted: maps stored, and the .js files that named one of them',
        },
        skipped: {
          type: 'array',
          items: {
            type: 'object',
            required: ['file', 'reason'],
            properties: { file: { type: 'string' }, reason: { type: 'string' } },
          },
        },
      },
    },
    400: errorAnswer,
    403: errorAnswer,
    413: errorAnswer,
    422: errorAnswer,
    503: errorAnswer,
  },
};

export interface Skipped {
  file: string;
  reason: string;
}

interface ScriptFile {
  file: SpooledFile;
  name: string;
  mapUrl: string | null;
  debugId: string | null;
  paired: boolean;
}

export async function sourceMapUploadRoute(scope: FastifyInstance, services: Services): Promise<void> {
  await registerUploadRoute(scope, services, {
    url: '/api/sourcemaps/upload',
    name: 'source-map upload',
    token: { format: SOURCE_MAP_TOKEN, column: 'source_map_token' },
    noFilesMessage: 'no files: send one or more .map files (and optionally their .js files) in the files field',
    schema: UPLOAD_SCHEMA,
    // A build's files are named by their path under the uploaded folder (assets/main.js).
    preservePath: true,
    store: (project, upload) => storeSourceMaps(services, project, upload.files, uploadFields(upload.fields)),
  });
}

function uploadFields(fields: Record<string, string>): { release: string; urlPrefix: string } {
  const release = (fields.release ?? '').trim();
  if (release.length > MAX_RELEASE || /[\u0000-\u001f\u007f]/.test(release))
    throw badRequest(`release must be at most ${MAX_RELEASE} printable characters`);
  const urlPrefix = (fields.urlPrefix ?? '~/').trim();
  if (urlPrefix.length > MAX_URL_PREFIX || /[\s\u0000-\u001f\u007f]/.test(urlPrefix)) {
    throw badRequest(`urlPrefix must be at most ${MAX_URL_PREFIX} characters without blanks, for example ~/assets/`);
  }
  return { release, urlPrefix };
}

/** A file name from the form, as a relative path without `..` segments. */
function relativeName(fileName: string): string {
  return path.posix.normalize(`/${fileName.replace(/\\/g, '/')}`).replace(/^\/+/, '');
}

function readTail(file: SpooledFile): string {
  const fd = fs.openSync(file.path, 'r');
  try {
    const length = Math.min(JS_TAIL_BYTES, file.size);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, file.size - length);
    return buffer.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The last `//# name=value` (or `//@ name=value`) comment of a script's tail. */
function trailingComment(tail: string, name: string): string | null {
  let found: string | null = null;
  for (const line of tail.split('\n')) {
    const text = line.trim();
    for (const lead of ['//#', '//@']) {
      const prefix = `${lead} ${name}=`;
      if (text.startsWith(prefix)) found = text.slice(prefix.length).trim();
    }
  }
  return found;
}

async function storeSourceMaps(
  services: Services,
  project: UploadProject,
  files: readonly SpooledFile[],
  fields: { release: string; urlPrefix: string },
): Promise<{ uploaded: number; skipped: Skipped[] }> {
  const skipped: Skipped[] = [];
  const scripts = new Map<string, ScriptFile>();
  const maps: Array<{ file: SpooledFile; name: string }> = [];
  for (const file of files) {
    const name = relativeName(file.fileName);
    if (/\.map$/i.test(name)) maps.push({ file, name });
    else if (/\.[cm]?js$/i.test(name)) {
      const tail = readTail(file);
      const mapUrl = trailingComment(tail, 'sourceMappingURL');
      const debugId = trailingComment(tail, 'debugId');
      scripts.set(name, {
        file,
        name,
        mapUrl,
        debugId: debugId === null ? null : normalizeJsDebugId(debugId),
        paired: false,
      });
    } else skipped.push({ file: file.fileName, reason: 'not a .map or .js file' });
  }

  let uploaded = 0;
  const skippedMaps = new Set<string>();
  for (const { file, name } of maps) {
    const reason = await storeMap(services, project, file, name, scripts, fields);
    if (reason === null) uploaded++;
    else {
      skipped.push({ file: file.fileName, reason });
      skippedMaps.add(name);
    }
  }
  for (const script of scripts.values()) {
    if (script.paired) uploaded++;
    else {
      skipped.push({
        file: script.file.fileName,
        reason:
          script.mapUrl === null
            ? 'it names no source map (no sourceMappingURL comment) and no map in the upload is for it'
            : `its source map ${script.mapUrl} ${skippedMaps.has(mapNameOf(script) ?? '') ? 'was skipped' : 'is not in this upload'}`,
      });
    }
  }
  return { uploaded, skipped };
}

/** The upload name of the map a script's sourceMappingURL names (a relative URL; data: and absolute URLs name none). */
function mapNameOf(script: ScriptFile): string | null {
  if (script.mapUrl === null || /^[a-z][a-z0-9+.-]*:/i.test(script.mapUrl)) return null;
  return relativeName(path.posix.join(path.posix.dirname(script.name), script.mapUrl.split(/[?#]/)[0]!));
}

/** Stores one map; answers null, or why it was skipped. */
async function storeMap(
  services: Services,
  project: UploadProject,
  file: SpooledFile,
  name: string,
  scripts: Map<string, ScriptFile>,
  fields: { release: string; urlPrefix: string },
): Promise<string | null> {
  if (file.size > MAX_MAP_BYTES)
    return `over ${MAX_MAP_BYTES / (1024 * 1024)} MB, the largest source map the service reads`;
  let info: ReturnType<typeof inspectSourceMap>;
  try {
    info = inspectSourceMap(fs.readFileSync(file.path, 'utf8'));
  } catch (error) {
    if (error instanceof SourceMapError) return `not a usable source map: ${error.message}`;
    throw error;
  }
  // Its script: a .js of the upload whose sourceMappingURL names this map, else the map's `file`, else its name without .map.
  const dir = path.posix.dirname(name);
  const script = [...scripts.values()].find((s) => mapNameOf(s) === name);
  const generated =
    script?.name ?? (info.file !== null ? relativeName(path.posix.join(dir, info.file)) : name.replace(/\.map$/i, ''));
  const servedPath = uploadedPath(fields.urlPrefix, generated);
  if (servedPath === null) return `no served path for ${generated} under urlPrefix ${fields.urlPrefix}`;
  if (info.debugId !== null && script?.debugId != null && info.debugId !== script.debugId) {
    return `its debugId ${info.debugId} contradicts the debugId ${script.debugId} of ${script.name}`;
  }
  const debugId = info.debugId ?? script?.debugId ?? '';
  if (fields.release === '' && debugId === '')
    return 'no release field, and neither the map nor its .js carries a debug id';
  const objectKey = sourceMapObjectKey(project.id, file.sha256);
  await services.objects.put(objectKey, fs.createReadStream(file.path));
  await upsertSourceMapFile(services.meta, {
    projectId: project.id,
    release: fields.release,
    path: servedPath,
    debugId,
    objectKey,
    size: file.size,
    contentSha256: file.sha256,
  });
  if (script) script.paired = true;
  return null;
}
