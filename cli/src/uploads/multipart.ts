/**
 * Multipart uploads with progress and bounded 503 retries. The body is streamed from disk and
 * counted as it is read, so a progress bar follows the bytes sent; each retry streams it anew.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonBody, fetchOrExplain } from '../http.js';

export interface UploadPart {
  field: string;
  /** A file on disk, or a plain text value. */
  file?: string;
  value?: string;
  /** The file's name in the form (a relative path such as assets/main.js); its base name when absent. */
  name?: string;
}

export interface UploadAttempt {
  response: Response;
  body: unknown;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** A longer Retry-After is cut to this, so a CI job never hangs on one answer. */
  maxWaitSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, maxWaitSeconds: 60 };

export interface UploadEvents {
  onProgress?(sentBytes: number, totalBytes: number): void;
  onRetry?(attempt: number, waitSeconds: number): void;
}

/** POSTs the parts; a 503 is retried after its Retry-After (bounded), anything else is returned. */
export async function postMultipart(
  url: string,
  token: string,
  parts: UploadPart[],
  events: UploadEvents = {},
  retry = DEFAULT_RETRY,
): Promise<UploadAttempt> {
  for (let attempt = 1; ; attempt++) {
    const { stream, length, boundary } = multipartBody(parts, events.onProgress);
    const response = await fetchOrExplain(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(length),
        accept: 'application/json',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = await jsonBody(response);
    if (response.status !== 503 || attempt >= retry.attempts) return { response, body };
    const wait = Math.min(retryAfterSeconds(response.headers.get('retry-after')), retry.maxWaitSeconds);
    events.onRetry?.(attempt, wait);
    await sleep(wait * 1000);
  }
}

/** Seconds or an HTTP date; without a usable value, 5 s. */
function retryAfterSeconds(header: string | null): number {
  if (header === null) return 5;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? 5 : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function multipartBody(parts: UploadPart[], onProgress?: (sent: number, total: number) => void) {
  const boundary = `----sightline-cli-${randomBytes(12).toString('hex')}`;
  const encoder = new TextEncoder();
  const quote = (text: string) => text.replace(/["\r\n\\]/g, '_');
  const pieces: Array<Uint8Array | { file: string; size: number }> = [];
  for (const part of parts) {
    if (part.file !== undefined) {
      const header = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.field)}"; filename="${quote(part.name ?? path.basename(part.file))}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      pieces.push(
        encoder.encode(header),
        { file: part.file, size: fs.statSync(part.file).size },
        encoder.encode('\r\n'),
      );
    } else {
      pieces.push(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.field)}"\r\n\r\n${part.value ?? ''}\r\n`,
        ),
      );
    }
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  const length = pieces.reduce((sum, piece) => sum + (piece instanceof Uint8Array ? piece.byteLength : piece.size), 0);
  let sent = 0;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const piece of pieces) {
      if (piece instanceof Uint8Array) {
        sent += piece.byteLength;
        yield piece;
        continue;
      }
      for await (const chunk of fs.createReadStream(piece.file, { highWaterMark: 256 * 1024 })) {
        const bytes = chunk as Buffer;
        sent += bytes.byteLength;
        onProgress?.(sent, length);
        yield new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }
    }
    onProgress?.(sent, length);
  }
  const iterator = chunks();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { stream, length, boundary };
}
