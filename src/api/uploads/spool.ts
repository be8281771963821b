/**
 * Spools the parts of a multipart upload (symbols, source maps) to temporary files: a 200 MB file
 * never sits in memory, the files can be read at random offsets to identify them, and the form
 * fields (arch, debug_id, release) are known before any file is judged, whatever their order in
 * the request.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest, payloadTooLarge } from '../../http/errors.js';

export interface SpooledFile {
  fileName: string;
  path: string;
  size: number;
  sha256: string;
}

export interface SpooledUpload {
  files: SpooledFile[];
  fields: Record<string, string>;
  /** Removes the temporary files. */
  cleanup(): void;
}

export interface SpoolLimits {
  fileBytes: number;
  requestBytes: number;
}

export async function spoolUpload(request: FastifyRequest, limits: SpoolLimits): Promise<SpooledUpload> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-upload-'));
  const upload: SpooledUpload = {
    files: [],
    fields: {},
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  let requestBytes = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') upload.fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'files') {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, String(upload.files.length));
      const hash = createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          requestBytes += chunk.length;
          if (requestBytes > limits.requestBytes) return done(payloadTooLarge(limits.requestBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(part.file, count, fs.createWriteStream(target));
      if (part.file.truncated)
        throw badRequest(`file "${part.filename}" is over the ${limits.fileBytes / (1024 * 1024)} MB limit per file`);
      upload.files.push({ fileName: part.filename, path: target, size, sha256: hash.digest('hex') });
    }
    return upload;
  } catch (error) {
    upload.cleanup();
    throw asUploadError(error, limits);
  }
}

/** @fastify/multipart's own limit errors, in the spec's statuses. */
function asUploadError(error: unknown, limits: SpoolLimits): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new HttpError(422, 'too many parts in the upload (at most 1000)');
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return badRequest(`a file is over the ${limits.fileBytes / (1024 * 1024)} MB limit per file`);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return badRequest('the request must be multipart/form-data with a files field');
  return error;
}
