/**
 * The dashboard (web/, built by `npm install` into web/dist) served by the application surface at
 * `/`. Hashed files under /assets/ are cached forever; index.html and the few unhashed files are
 * revalidated on every load, so a deploy shows at once. Any other GET outside the API that asks
 * for HTML gets index.html: the app's router owns those paths (`/issues`, `/settings/project`,
 * ...). Without a build, such a request is told how to make one instead of a bare 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerNoRoute } from '../http/error-handler.js';

/**
 * What the app may load: its own scripts only (no inline script, no eval), its own API, images
 * from itself and data: URLs. Inline *styles* are allowed because Radix's scroll lock and the
 * toast library insert <style> elements at run time; a style cannot run code.
 *
 * Session replays (rrweb-player on /sessions/:id) rebuild the recorded page in an about:blank
 * iframe, which inherits this policy: its stylesheets become <style> elements (allowed above),
 * its scripts are never rebuilt, but its images keep the recorded site's absolute URLs. So images
 * may come from any http(s) origin — an image cannot run code. Nothing else was needed: the
 * player uses no eval, no blob: worker and no srcdoc.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https: http:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Paths that belong to the service, never to the app: an unknown one stays a JSON 404. `/metrics`
 * is not among them: it is the dashboard's metrics explorer. The Prometheus route of that name
 * (present only with METRICS_TOKEN) is an exact route that wins over this fallback, so it hands a
 * browser's navigation to `sendAppPage` itself (see isBrowserNavigation).
 */
const SERVICE_PATH = /^\/(api|\.well-known)(\/|$)|^\/(health|ready)$/;

export const NOT_BUILT =
  'The dashboard is not built. Run `npm install` (or `npm run build`) at the repository root, which builds web/ into web/dist, then reload.';

export async function webRoutes(app: FastifyInstance, root: string): Promise<void> {
  // serve: false: only reply.sendFile (path-traversal safe, ETag, ranges); the routing is ours.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false });
  const indexFile = path.join(root, 'index.html');

  app.get('/*', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = decodePath(request.url.split('?')[0] ?? '/');
    if (urlPath === null || SERVICE_PATH.test(urlPath)) return answerNoRoute(request, reply);
    // The root is the dashboard whoever asks (`curl http://localhost:8080` included): no API
    // answers there, and "no route GET /" read as if the service were not running.
    const wantsPage = acceptsHtml(request) || urlPath === '/';
    if (!fs.existsSync(indexFile)) return wantsPage ? sendAppPage(reply, root) : answerNoRoute(request, reply);
    if (urlPath !== '/' && urlPath !== '/index.html' && isFile(root, urlPath)) {
      const immutable = urlPath.startsWith('/assets/');
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      void reply.header('x-content-type-options', 'nosniff');
      return reply.sendFile(urlPath.slice(1));
    }
    // A missing hashed file is a stale page asking for an old build: a 404, not the app.
    if (urlPath.startsWith('/assets/') || !wantsPage) return answerNoRoute(request, reply);
    return sendAppPage(reply, root);
  });
}

/**
 * The app's index.html (its router then shows the page of the URL), revalidated on every load,
 * under the Content-Security-Policy; without a build, how to make one.
 */
export async function sendAppPage(reply: FastifyReply, root: string): Promise<FastifyReply> {
  let page: Buffer;
  try {
    page = await fs.promises.readFile(path.join(root, 'index.html'));
  } catch {
    return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
  }
  return reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(page);
}

/** A person's browser opening a page by URL: it asks for HTML and presents no credential. */
export function isBrowserNavigation(request: FastifyRequest): boolean {
  return request.headers.authorization === undefined && acceptsHtml(request);
}

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function decodePath(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** True for a regular file inside root (never outside it, whatever `..` the path holds). */
function isFile(root: string, urlPath: string): boolean {
  const resolved = path.resolve(root, `.${path.posix.normalize(urlPath)}`);
  if (!resolved.startsWith(root + path.sep)) return false;
  try {
    return fs.statSync(resolved).isFile();
  } catch {
    return false;
  }
}
