/**
 * POST /api/symbols/upload: Dart `.symbols` files, iOS dSYM Mach-O binaries (thin or fat) and
 * Android mapping files, authenticated by the project's upload token only.
 */
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdmissionGate } from '../../http/admission.js';
import { bearerToken } from '../../http/bearer.js';
import { HttpError, badRequest, forbidden, payloadTooLarge, unauthorized } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import {
  bindMappingVersion,
  findProjectByUploadToken,
  upsertSymbolFile,
  type UploadProject,
} from '../../store/meta/repositories/symbol-files.js';
import { UPLOAD_TOKEN } from '../../core/tokens.js';
import { SymbolFileError, identifySymbolFile, type ByteSource } from '../../symbols/index.js';
import {
  dartArch,
  dartBuildId,
  mappingBuildId,
  mappingVersion,
  notReadable,
  requireDwarf,
  symbolObjectKeys,
  type UploadFields,
} from './rules.js';
import { spoolUpload, type SpooledFile } from './spool.js';

export const UPLOAD_LIMITS = {
  fileBytes: 200 * 1024 * 1024,
  requestBytes: 250 * 1024 * 1024,
  parts: 1000,
} as const;

export async function symbolUploadRoute(scope: FastifyInstance, services: Services): Promise<void> {
  await scope.register(multipart, {
    limits: {
      fileSize: UPLOAD_LIMITS.fileBytes,
      parts: UPLOAD_LIMITS.parts,
      files: UPLOAD_LIMITS.parts,
      fields: 20,
      fieldSize: 1024,
    },
  });
  // Uploads are few and large: a handful at once, the rest wait for a slot or get 503.
  const slots = new AdmissionGate({ name: 'symbol upload', ...services.config.symbolUploads, maxWaiting: 16 });

  scope.post('/api/symbols/upload', { bodyLimit: UPLOAD_LIMITS.requestBytes }, async (request) => {
    const project = await uploadProject(services, request);
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > UPLOAD_LIMITS.requestBytes) throw payloadTooLarge(UPLOAD_LIMITS.requestBytes);
    if (!request.isMultipart()) throw badRequest('the request must be multipart/form-data with a files field');
    const release = await slots.acquire();
    try {
      const upload = await spoolUpload(request, {
        fileBytes: UPLOAD_LIMITS.fileBytes,
        requestBytes: UPLOAD_LIMITS.requestBytes,
      });
      try {
        if (upload.files.length === 0) throw badRequest('no files: send one or more files in the files field');
        let uploaded = 0;
        for (const file of upload.files) uploaded += await storeSymbolFile(services, project, file, upload.fields);
        return { uploaded };
      } finally {
        upload.cleanup();
      }
    } finally {
      release();
    }
  });
}

async function uploadProject(services: Services, request: FastifyRequest): Promise<UploadProject> {
  const token = bearerToken(request.headers.authorization);
  if (token === null || !UPLOAD_TOKEN.test(token)) throw unauthorized();
  const project = await findProjectByUploadToken(services.meta, token);
  if (!project) throw unauthorized();
  if (project.suspended) throw forbidden('the organization is suspended');
  return project;
}

/** Stores one spooled file; answers how many files it counts as (0 when unrecognized). */
async function storeSymbolFile(
  services: Services,
  project: UploadProject,
  file: SpooledFile,
  fields: UploadFields,
): Promise<number> {
  const fd = fs.openSync(file.path, 'r');
  try {
    const identity = identify(fileSource(fd, file.size), file.fileName);
    if (identity.kind === 'unknown') return 0;
    requireDwarf(identity, file.fileName);
    if (identity.kind === 'dart') {
      const arch = dartArch(fields, file.fileName, identity);
      const buildId = dartBuildId(fields, file.fileName, identity);
      const objectKey = symbolObjectKeys.dart(project.id, buildId, arch);
      await services.objects.put(objectKey, fs.createReadStream(file.path));
      await upsertSymbolFile(services.meta, {
        projectId: project.id,
        kind: 'dart',
        buildId,
        arch,
        objectKey,
        size: file.size,
        contentSha256: file.sha256,
      });
      return 1;
    }
    if (identity.kind === 'macho') {
      // One entry per architecture slice; a fat binary still counts once.
      for (const slice of identity.slices) {
        const objectKey = symbolObjectKeys.ios(project.id, slice.uuid);
        await services.objects.put(
          objectKey,
          fs.createReadStream(file.path, { start: slice.offset, end: slice.offset + slice.size - 1 }),
        );
        await upsertSymbolFile(services.meta, {
          projectId: project.id,
          kind: 'ios',
          buildId: slice.uuid,
          arch: slice.arch,
          objectKey,
          size: slice.size,
          contentSha256: file.sha256,
        });
      }
      return 1;
    }
    const buildId = mappingBuildId(identity, file.sha256);
    const objectKey = symbolObjectKeys.proguard(project.id, buildId);
    const appVersion = mappingVersion(fields);
    await services.objects.put(objectKey, fs.createReadStream(file.path));
    await services.meta.transaction(async (tx) => {
      await upsertSymbolFile(tx, {
        projectId: project.id,
        kind: 'proguard',
        buildId,
        arch: '',
        objectKey,
        size: file.size,
        contentSha256: file.sha256,
      });
      if (appVersion !== null) await bindMappingVersion(tx, project.id, buildId, appVersion);
    });
    return 1;
  } finally {
    fs.closeSync(fd);
  }
}

function identify(source: ByteSource, fileName: string) {
  try {
    return identifySymbolFile(source, fileName);
  } catch (error) {
    if (error instanceof SymbolFileError) throw notReadable(fileName, error.message);
    throw error;
  }
}

/** Positioned reads on the spooled file: identification reads headers, not the whole file. */
function fileSource(fd: number, size: number): ByteSource {
  return {
    size,
    read(offset, length) {
      const buffer = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const read = fs.readSync(fd, buffer, done, length - done, offset + done);
        if (read === 0) throw new HttpError(500, 'spooled upload shorter than expected');
        done += read;
      }
      return buffer;
    },
  };
}
