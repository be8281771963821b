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
  /** The multipart parser's limits on a text field's value and on the text fields of a form. */
  fieldBytes: number;
  fields: number;
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
        // busboy cuts a long value to the fieldSize limit without an error: a cut debug_id or
        // release would be stored as if sent.
        if (part.valueTruncated) throw badRequest(`the ${part.fieldname} field is over ${limits.fieldBytes} bytes`);
        if (typeof part.value === 'string') upload.fields[part.fieldname] = part.value;
        continue;
      }
      // A field read as text (release, arch) sent as a file would be lost without a word, and the
      // upload judged without it.
      if (part.fieldname !== 'files') {
        const sent = part.fieldname ? `the ${part.fieldname} field was` : 'a part without a field name was';
        throw badRequest(`only the files field takes files: ${sent} sent as a file`);
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

/**
 * busboy's refusals of a malformed form, which carry no code, only a message: each is the client's
 * fault (400), not the server's (they were 500s).
 */
const MALFORMED_FORMS: Array<[RegExp, string]> = [
  [/^Multipart: Boundary not found$/, 'the multipart/form-data Content-Type has no boundary parameter'],
  [/^The needle cannot have a length bigger than 256/, 'the multipart boundary is longer than 256 characters'],
  [/unexpected end of multipart data$/i, 'the multipart body ends before its closing boundary (truncated)'],
];

/** @fastify/multipart's and busboy's errors, in the spec's statuses. */
function asUploadError(error: unknown, limits: SpoolLimits): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
    return new HttpError(422, 'too many parts in the upload (at most 1000)');
  }
  if (code === 'FST_FIELDS_LIMIT')
    return new HttpError(422, `too many text fields in the upload (at most ${limits.fields})`);
  const message = error instanceof Error ? error.message : '';
  const malformed = MALFORMED_FORMS.find(([pattern]) => pattern.test(message));
  if (malformed) return badRequest(malformed[1]);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return badRequest(`a file is over the ${limits.fileBytes / (1024 * 1024)} MB limit per file`);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return badRequest('the request must be multipart/form-data with a files field');
  return error;
}
