/** symbols upload and sourcemaps upload. */
import fs from 'node:fs';
import path from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { z } from 'zod';
import type { Context } from '../context.js';
import { CliError, EXIT, notSignedIn, usageError } from '../errors.js';
import { refusal, serverMessage } from '../http.js';
import { printDetail } from '../output.js';
import { findSymbolFiles, type SymbolFile } from '../uploads/discover.js';
import { postMultipart, type UploadPart } from '../uploads/multipart.js';
import { action, commandGroup, withExamples } from './shared.js';

/** What a read-only member sees instead of a project's secrets. */
const HIDDEN_TOKEN = 'read-only-hidden-token';
const DART_ARCHES = ['arm64', 'arm', 'x64', 'ia32', 'x86_64', 'amd64', 'aarch64'];

export function uploadCommands(program: Command): void {
  const symbols = commandGroup(
    program,
    'symbols',
    'debug symbols for crash symbolication',
    'sightline-cli symbols upload build/',
  );
  withExamples(
    symbols
      .command('upload')
      .argument('<paths...>', 'files or folders: Dart .symbols, iOS .dSYM bundles, Android mapping.txt')
      .description('find debug-symbol files under the paths and upload them')
      .option(
        '--upload-token <token>',
        "the project's upload token (else SIGHTLINE_UPLOAD_TOKEN, else fetched with your sign-in)",
      )
      .option('--arch <arch>', 'Dart only: architecture when the file name does not end in -<arch>.symbols')
      .option('--debug-id <id>', 'Dart only: build id for files without a build-id note (Apple builds)')
      .addHelpText('after', UPLOAD_EXIT_HELP)
      .action(action<{ uploadToken?: string; arch?: string; debugId?: string }>(uploadSymbols)),
    'sightline-cli symbols upload build/app/outputs/symbols build/ios/Runner.app.dSYM',
    'SIGHTLINE_UPLOAD_TOKEN=... sightline-cli symbols upload --url https://sightline.example.com build/   # in CI',
  );

  const sourcemaps = commandGroup(
    program,
    'sourcemaps',
    'JavaScript source maps',
    'sightline-cli sourcemaps upload dist/',
  );
  withExamples(
    sourcemaps
      .command('upload')
      .argument('<dir>', 'build folder with .js and .map files')
      .description('upload the source maps (and their .js files) of a JavaScript build')
      .option(
        '--release <version>',
        'the app version your clients report (else SIGHTLINE_RELEASE); not needed when the build carries debug ids',
      )
      .option(
        '--url-prefix <prefix>',
        'where the folder is served: ~/ (default; ~ is any origin), ~/assets/, a path (/assets/, /srv/app/dist/ for Node) or a URL (https://example.com/assets/)',
      )
      .option(
        '--sourcemap-token <token>',
        "the project's source-map token (else SIGHTLINE_SOURCEMAP_TOKEN, else fetched with your sign-in)",
      )
      .addHelpText('after', UPLOAD_EXIT_HELP)
      .action(action<{ sourcemapToken?: string; release?: string; urlPrefix?: string }>(uploadSourceMaps)),
    'sightline-cli sourcemaps upload dist/ --release 1.4.0',
    'SIGHTLINE_SOURCEMAP_TOKEN=... sightline-cli sourcemaps upload --url https://sightline.example.com --release "$GIT_SHA" --url-prefix "~/assets/" dist/assets   # in CI',
  );
}

/**
 * The service names its form fields (debug_id, arch, release, urlPrefix) in its refusals and skip
 * reasons; a person at the command line set them with flags. Each pair rewrites one spelling,
 * the rest of the service's message is kept.
 */
type FlagNames = ReadonlyArray<readonly [RegExp, string]>;
const SYMBOL_FLAGS: FlagNames = [
  [/\bsend its debug_id\b/g, 'pass --debug-id'],
  [/\bsend the arch field\b/g, 'pass --arch'],
  [/\bunknown arch "/g, 'unknown --arch "'],
  [/\bdebug_id\b/g, '--debug-id'],
];
const SOURCE_MAP_FLAGS: FlagNames = [
  [/\bno release field\b/g, 'no --release'],
  [/(^|[^-])\brelease must\b/g, '$1--release must'],
  [/\burlPrefix\b/g, '--url-prefix'],
];

function withFlagNames(message: string, names: FlagNames): string {
  return names.reduce((text, [field, flag]) => text.replace(field, flag), message);
}

/** A refusal (refusal()) whose message names the command's flags instead of the form fields. */
function refusalNamingFlags(response: Response, body: unknown, names: FlagNames): CliError {
  const error = refusal(response, body);
  return new CliError(withFlagNames(error.message, names), error.exitCode, error.hint, error.status);
}

/** Signing in does not help with a wrong project token: say where the right one is. */
function refusedTokenHint(kind: 'upload' | 'sourcemap'): string {
  const [flag, variable] =
    kind === 'upload'
      ? ['--upload-token', 'SIGHTLINE_UPLOAD_TOKEN']
      : ['--sourcemap-token', 'SIGHTLINE_SOURCEMAP_TOKEN'];
  return `check ${flag} or ${variable} against the project's Connection page (it changes when rotated), or leave both unset to fetch it with your sign-in`;
}

/** An explicit token, else the environment's, else the project's (needs the write role to see it). */
async function projectSecret(
  context: Context,
  explicit: string | undefined,
  variable: string,
  pick: 'uploadToken' | 'sourceMapToken',
): Promise<string> {
  const given = explicit ?? process.env[variable];
  if (given) return given;
  let session: ReturnType<Context['session']>;
  try {
    session = context.session();
  } catch (error) {
    if (!(error instanceof CliError) || error.exitCode !== EXIT.notSignedIn) throw error;
    const flag = pick === 'uploadToken' ? '--upload-token' : '--sourcemap-token';
    throw notSignedIn(
      `no ${pick === 'uploadToken' ? 'upload' : 'source-map'} token`,
      `pass ${flag} or set ${variable} (the project's Connection page shows it), or sign in with \`sightline-cli login\` to fetch it`,
    );
  }
  const projectId = await context.projectId(session);
  const connection = await session.call((api) =>
    api.GET('/api/projects/connection', { params: { query: { projectId } } }),
  );
  const token = connection[pick];
  if (token === HIDDEN_TOKEN)
    throw new CliError(
      'your role on the project cannot see its tokens (read-only)',
      EXIT.apiError,
      `pass the token with --${pick === 'uploadToken' ? 'upload-token' : 'sourcemap-token'} or ${variable}`,
    );
  return token;
}

type FileOutcome = { path: string; kind: string };

/**
 * Both upload commands' exit code, for a CI step: 1 when a file failed or when nothing was
 * accepted (every file skipped: the step uploaded nothing a crash can be mapped with), else 0;
 * files skipped beside accepted ones are listed, not fatal. The service replaces a file uploaded
 * again (re-running a job accepts it again), so there is no "already uploaded" skip to forgive.
 */
function uploadExitCode(accepted: number, failed: number): number {
  return failed > 0 || accepted === 0 ? EXIT.apiError : EXIT.ok;
}

/** The exit codes of both upload commands, in their help. */
const UPLOAD_EXIT_HELP =
  '\nExit status: 0 when files were accepted (others may be skipped, listed with the reason); 1 when nothing was accepted or a file failed; 2 for a usage error; 4 when the token is refused.';

async function uploadSymbols(
  context: Context,
  options: { uploadToken?: string; arch?: string; debugId?: string },
  args: unknown[],
): Promise<void> {
  const paths = args[0] as string[];
  if (options.arch !== undefined && !DART_ARCHES.includes(options.arch))
    throw usageError(
      `--arch "${options.arch}" is not a Dart architecture`,
      `use one of ${DART_ARCHES.slice(0, 4).join(', ')}`,
    );
  // The service's form of a build id (src/symbols/ids.ts normalizeDebugId): checked here so a typo
  // is a usage error before any file is sent, not a failure per file.
  const debugId = options.debugId?.trim().replaceAll('-', '').toLowerCase();
  if (debugId !== undefined && !(/^[0-9a-f]{16,128}$/.test(debugId) && debugId.length % 2 === 0))
    throw usageError(
      `--debug-id "${options.debugId}" is not a build id`,
      'a build id is 16 to 128 hexadecimal digits (dashes allowed), e.g. the UUID Xcode shows for the build',
    );
  const files = findSymbolFiles(paths);
  if (files.length === 0)
    throw usageError(
      `no debug-symbol files under ${paths.join(', ')}`,
      'looked for *.symbols, *.dSYM bundles and R8/ProGuard mapping .txt files',
    );
  const url = context.baseUrl();
  const token = await projectSecret(context, options.uploadToken, 'SIGHTLINE_UPLOAD_TOKEN', 'uploadToken');
  const accepted: FileOutcome[] = [];
  const skipped: FileOutcome[] = [];
  const failed: Array<FileOutcome & { status: number; error: string }> = [];
  const interactive = process.stderr.isTTY === true;
  for (const file of files) {
    const parts: UploadPart[] = [];
    if (file.kind === 'dart' && options.arch) parts.push({ field: 'arch', value: options.arch });
    if (file.kind === 'dart' && options.debugId) parts.push({ field: 'debug_id', value: options.debugId });
    parts.push({ field: 'files', file: file.path });
    const { response, body } = await sendWithProgress(
      new URL('/api/symbols/upload', url).href,
      token,
      parts,
      file,
      interactive,
    );
    if (response.status === 401) {
      throw notSignedIn(
        `the upload token was refused (401${serverMessage(body) ? `: ${serverMessage(body)}` : ''}): it is not the upload token of a live project`,
        refusedTokenHint('upload'),
      );
    }
    const uploaded = response.ok ? z.object({ uploaded: z.number() }).safeParse(body).data?.uploaded : undefined;
    if (uploaded === undefined) {
      const error = refusalNamingFlags(response, body, SYMBOL_FLAGS);
      failed.push({ path: file.path, kind: file.kind, status: response.status, error: error.message });
      if (!interactive) process.stderr.write(`failed ${file.path}: ${error.message}\n`);
    } else (uploaded > 0 ? accepted : skipped).push({ path: file.path, kind: file.kind });
  }
  const lines = [
    ...accepted.map((file) => `accepted  ${file.path}  (${file.kind})`),
    ...skipped.map((file) => `skipped   ${file.path}  (not a symbol file the service recognises)`),
    ...failed.map((file) => `failed    ${file.path}  ${file.error}`),
    `${accepted.length} accepted, ${skipped.length} skipped, ${failed.length} failed`,
  ];
  printDetail({ json: { accepted, skipped, failed }, text: lines.join('\n') }, context.output);
  process.exitCode = uploadExitCode(accepted.length, failed.length);
}

async function sendWithProgress(
  url: string,
  token: string,
  parts: UploadPart[],
  file: SymbolFile,
  interactive: boolean,
) {
  const label = `${path.basename(file.path)} (${file.kind})`;
  if (!interactive) {
    // CI logs: one plain line per file and per retry, no redraws.
    process.stderr.write(`uploading ${file.path} (${file.kind}, ${file.size} bytes)\n`);
    return postMultipart(url, token, parts, {
      onRetry: (attempt, wait) =>
        process.stderr.write(`service busy (503): retrying ${file.path} in ${wait} s (attempt ${attempt + 1})\n`),
    });
  }
  const bar = new SingleBar({
    format: `{bar} {percentage}% {label}`,
    hideCursor: true,
    clearOnComplete: false,
    stream: process.stderr,
  });
  bar.start(Math.max(file.size, 1), 0, { label });
  try {
    return await postMultipart(url, token, parts, {
      onProgress: (sent, total) => bar.update(Math.min(file.size, Math.round((sent / total) * file.size))),
      onRetry: (_attempt, wait) => bar.update(0, { label: `${label} — service busy, retrying in ${wait} s` }),
    });
  } finally {
    bar.stop();
  }
}

/** A request carries at most this many bytes and parts; a .js and its map always travel together. */
const SOURCE_MAP_BATCH_BYTES = 100 * 1024 * 1024;
const SOURCE_MAP_BATCH_FILES = 400;

interface BuildFile {
  path: string;
  /** Relative to the build folder, with forward slashes: the name the service serves it under (after urlPrefix). */
  name: string;
  size: number;
}

/** The .js/.mjs/.cjs files and their maps under a build folder (node_modules left out), each map next to its script. */
function findBuildFiles(dir: string): BuildFile[] {
  const names = (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .map((name) => name.split(path.sep).join('/'))
    .filter((name) => /\.(js|mjs|cjs)(\.map)?$/.test(name) && !name.split('/').includes('node_modules'))
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .sort();
  return names.map((name) => ({ path: path.join(dir, name), name, size: fs.statSync(path.join(dir, name)).size }));
}

/** Requests of at most SOURCE_MAP_BATCH_BYTES / _FILES, never splitting a script from its map. */
function batches(files: BuildFile[]): BuildFile[][] {
  const groups = new Map<string, BuildFile[]>();
  for (const file of files) {
    const key = file.name.replace(/\.map$/, '');
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  const out: BuildFile[][] = [];
  let current: BuildFile[] = [];
  let bytes = 0;
  for (const group of groups.values()) {
    const size = group.reduce((sum, file) => sum + file.size, 0);
    if (
      current.length > 0 &&
      (bytes + size > SOURCE_MAP_BATCH_BYTES || current.length + group.length > SOURCE_MAP_BATCH_FILES)
    ) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(...group);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The service's longest urlPrefix (src/api/sourcemaps/upload.ts). */
const MAX_URL_PREFIX = 512;

/**
 * A --url-prefix a stack frame's script URL can match. The service compares served paths
 * (src/symbols/sourcemap/paths.ts): a frame's URL loses its origin, query and fragment, and an
 * upload's path is the prefix + the file's name under the folder. So the prefix is `~` (any
 * origin) or `~/path/`, an absolute path (`/static/`, a Node app's `/srv/app/dist/`), or a URL
 * with a host (`https://example.com/static/`, `file:///srv/app/`); a `?` or `#` would cut the
 * file's name off. A bare word ("nope", "static/") is refused: it is most likely a mistake.
 */
function checkUrlPrefix(prefix: string): void {
  const refuse = (why: string) =>
    usageError(
      `--url-prefix "${prefix}" ${why}`,
      'use where the folder is served: ~/static/ (any origin), /static/ or /srv/app/dist/ (a path), or https://example.com/static/',
    );
  if (prefix.length > MAX_URL_PREFIX) throw refuse(`is longer than ${MAX_URL_PREFIX} characters`);
  if (/[\s\u0000-\u001f\u007f]/.test(prefix)) throw refuse('has blanks or control characters');
  if (/[?#]/.test(prefix)) throw refuse('has a query or fragment (? or #), which frames are matched without');
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)(\/.*)?$/i.exec(prefix);
  if (url ? url[1] === '' && !/^file:/i.test(prefix) : !/^(~|~\/.*|\/.*)$/.test(prefix))
    throw refuse('is not a URL prefix');
}

const sourceMapAnswer = z.object({
  uploaded: z.number(),
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
});

async function uploadSourceMaps(
  context: Context,
  options: { sourcemapToken?: string; release?: string; urlPrefix?: string },
  args: unknown[],
): Promise<void> {
  const dir = String(args[0]);
  if (options.urlPrefix !== undefined) checkUrlPrefix(options.urlPrefix);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`no such folder: ${dir}`);
  const files = findBuildFiles(dir);
  if (!files.some((file) => file.name.endsWith('.map')))
    throw usageError(`no .map files under ${dir}`, 'build with source maps enabled');
  const release = options.release ?? process.env.SIGHTLINE_RELEASE;
  const url = context.baseUrl();
  const token = await projectSecret(context, options.sourcemapToken, 'SIGHTLINE_SOURCEMAP_TOKEN', 'sourceMapToken');
  let uploaded = 0;
  const skipped: Array<{ file: string; reason: string }> = [];
  for (const batch of batches(files)) {
    const parts: UploadPart[] = [];
    if (release) parts.push({ field: 'release', value: release });
    parts.push({ field: 'urlPrefix', value: options.urlPrefix ?? '~/' });
    for (const file of batch) parts.push({ field: 'files', file: file.path, name: file.name });
    if (process.stderr.isTTY !== true) process.stderr.write(`uploading ${batch.length} files from ${dir}\n`);
    const { response, body } = await postMultipart(new URL('/api/sourcemaps/upload', url).href, token, parts, {
      onRetry: (attempt, wait) =>
        process.stderr.write(`service busy (503): retrying in ${wait} s (attempt ${attempt + 1})\n`),
    });
    const message = serverMessage(body);
    if (response.status === 404 && message?.startsWith('no route')) {
      throw new CliError(
        `the service at ${url} does not support source-map uploads (POST /api/sourcemaps/upload: ${message})`,
        EXIT.apiError,
        'upgrade the service',
      );
    }
    if (response.status === 401)
      throw notSignedIn(
        'the source-map token was refused (401): it is not the source-map token of a live project',
        refusedTokenHint('sourcemap'),
      );
    if (!response.ok) throw refusalNamingFlags(response, body, SOURCE_MAP_FLAGS);
    const answer = sourceMapAnswer.safeParse(body).data;
    if (!answer)
      throw new CliError(`unexpected answer from ${url}: ${JSON.stringify(body).slice(0, 200)}`, EXIT.apiError);
    uploaded += answer.uploaded;
    skipped.push(
      ...answer.skipped.map(({ file, reason }) => ({ file, reason: withFlagNames(reason, SOURCE_MAP_FLAGS) })),
    );
  }
  const lines = [
    ...skipped.map((file) => `skipped   ${file.file}  ${file.reason}`),
    `${uploaded} accepted, ${skipped.length} skipped${release ? ` (release ${release})` : ''}, urlPrefix ${options.urlPrefix ?? '~/'}`,
  ];
  printDetail({ json: { release: release ?? null, uploaded, skipped }, text: lines.join('\n') }, context.output);
  process.exitCode = uploadExitCode(uploaded, 0);
}
