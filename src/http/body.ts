/**
 * Reads a request body as a stream: decompresses it (gzip, deflate, br) while counting the
 * decompressed bytes, stops as soon as the cap is passed (so a gzip bomb costs at most the cap),
 * and gives up with 408 when the body has not fully arrived in time. A request answered before
 * its body was read has the rest discarded, within bounds (discardRestOfBody).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { HttpError, badRequest, payloadTooLarge } from './errors.js';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

export async function readBody(
  stream: Readable,
  contentEncoding: string | undefined,
  limits: BodyLimits,
): Promise<Buffer> {
  const decoder = decompressorFor(contentEncoding);
  const source: Readable = decoder ? stream.pipe(decoder) : stream;
  const chunks: Buffer[] = [];
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  // The clock measures arrival only: it stops when the last raw byte is in, whatever decompression still takes.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HttpError(408, `request body did not arrive within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    stream.once('end', () => clearTimeout(timer));
  });
  const collect = (async () => {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > limits.maxBytes) throw payloadTooLarge(limits.maxBytes);
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (decoder && isZlibError(error)) throw badRequest(`body is not valid ${contentEncoding} data`);
      throw error;
    }
  })();
  try {
    await Promise.race([collect, timedOut]);
  } catch (error) {
    // Stop reading the rest: the answer is already decided.
    stream.unpipe();
    decoder?.destroy();
    stream.resume();
    collect.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/**
 * How much of a refused request's body is read and thrown away after the answer before the
 * connection is closed anyway. Clients that read while they send (fetch, curl, Go) stop within
 * a few chunks of the answer; the bounds only cost a client that sends everything first.
 * `lingerMs`: how long a connection closed past the bounds still drops what arrives (see
 * closeLingering).
 */
export const DISCARD_BOUNDS = { bytes: 32 * 1024 * 1024, ms: 5_000, lingerMs: 5_000 } as const;

/**
 * Reads and discards the rest of a request body that was answered before its end (401, 413,
 * 503...). Closing at once would reset the connection while the client still sends, and a client
 * that fails its next write before reading the answer (Node's fetch: EPIPE) never sees the
 * status. Past the bounds the connection is closed once the answer is flushed (closeLingering).
 */
export function discardRestOfBody(request: IncomingMessage, response: ServerResponse): void {
  if (request.readableEnded || request.destroyed) return;
  let discarded = 0;
  const stop = (): void => {
    clearTimeout(timer);
    request.off('data', count);
  };
  const closeAfterAnswer = (): void => {
    stop();
    const close = (): void => closeLingering(request.socket);
    if (response.writableFinished) close();
    else response.once('finish', close);
  };
  const count = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > DISCARD_BOUNDS.bytes) closeAfterAnswer();
  };
  const timer = setTimeout(closeAfterAnswer, DISCARD_BOUNDS.ms).unref();
  request.once('end', stop);
  request.once('close', stop);
  request.on('data', count);
  // A body parser (multipart, a decompressor) may still be attached and pausing the stream.
  request.unpipe();
  request.resume();
}

/**
 * Closes a connection whose client may still be sending, as nginx's lingering close does: our
 * side first (a FIN after the answer), then whatever still arrives is read and dropped until the
 * client closes or `DISCARD_BOUNDS.lingerMs` pass. Closing at once would be a reset, and a reset
 * makes the client's kernel drop the answer if the client had not read it yet (a client busy
 * sending: fetch on a loaded machine).
 */
function closeLingering(socket: Socket): void {
  // fastify.inject() answers through a stand-in with no connection (and no end or destroy) to close.
  if (!(socket instanceof net.Socket) || socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), DISCARD_BOUNDS.lingerMs).unref();
  socket.once('close', () => clearTimeout(timer));
  // The client's FIN: nothing more will arrive.
  socket.once('end', () => socket.destroy());
  socket.end();
}

function decompressorFor(
  contentEncoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw badRequest(`unsupported Content-Encoding "${contentEncoding}" (use gzip, deflate, br or none)`);
  }
}

/** zlib's errors (gzip, deflate) have `Z_*` codes, the brotli decoder's `ERR__ERROR_*` ones. */
function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'));
}
