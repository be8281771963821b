/**
 * POST /api/symbols/upload: Dart `.symbols` files, iOS dSYM Mach-O binaries (thin or fat) and
 * Android mapping files, authenticated by the project's upload token only.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import { bindMappingVersion, upsertSymbolFile } from '../../store/meta/repositories/symbol-files.js';
import type { UploadProject } from '../../store/meta/repositories/upload-projects.js';
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
import type { SpooledFile } from '../uploads/spool.js';
import { registerUploadRoute } from '../uploads/upload-route.js';

export async function symbolUploadRoute(scope: FastifyInstance, services: Services): Promise<void> {
  await registerUploadRoute(scope, services, {
    url: '/api/symbols/upload',
    name: 'symbol upload',
    token: { format: UPLOAD_TOKEN, column: 'upload_token' },
    noFilesMessage: 'no files: send one or more files in the files field',
    async store(project, upload) {
      let uploaded = 0;
      for (const file of upload.files) uploaded += await storeSymbolFile(services, project, file, upload.fields);
      return { uploaded };
    },
  });
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
