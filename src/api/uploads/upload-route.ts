/**
 * What the symbol upload and the source-map upload share: a project token the only credential,
 * the multipart parts spooled to temporary files under one set of limits (the spec's, for symbol
 * uploads), and a few uploads at once. Each route keeps only what it does with the files.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { Services } from '../../application/services.js';
import { AdmissionGate } from '../../http/admission.js';
import { bearerToken } from '../../http/bearer.js';
import { badRequest, forbidden, payloadTooLarge, unauthorized } from '../../http/errors.js';
import {
  findProjectByUploadToken,
  type UploadProject,
  type UploadTokenColumn,
} from '../../store/meta/repositories/upload-projects.js';
import { spoolUpload, type SpooledUpload } from './spool.js';

export const UPLOAD_LIMITS = {
  fileBytes: 200 * 1024 * 1024,
  requestBytes: 250 * 1024 * 1024,
  parts: 1000,
  /** Text fields (arch, debug_id, release, ...): a few, short. */
  fields: 20,
  fieldBytes: 1024,
} as const;

export interface UploadRoute<Answer> {
  url: string;
  /** Names the route's admission gate. */
  name: string;
  /** The token's format and the `projects` column it is looked up on. */
  token: { format: RegExp; column: UploadTokenColumn };
  /** The 400 message of a form without files. */
  noFilesMessage: string;
  schema?: FastifySchema;
  /** Keep the folders of the form's file names (`assets/main.js`), not only their base names. */
  preservePath?: boolean;
  /** Judges and stores the spooled files; they are removed when it settles. */
  store(project: UploadProject, upload: SpooledUpload): Promise<Answer>;
}

export async function registerUploadRoute<Answer>(
  scope: FastifyInstance,
  services: Services,
  route: UploadRoute<Answer>,
): Promise<void> {
  await scope.register(multipart, {
    ...(route.preservePath ? { preservePath: true } : {}),
    limits: {
      fileSize: UPLOAD_LIMITS.fileBytes,
      parts: UPLOAD_LIMITS.parts,
      files: UPLOAD_LIMITS.parts,
      fields: UPLOAD_LIMITS.fields,
      fieldSize: UPLOAD_LIMITS.fieldBytes,
    },
    // preservePath is a busboy option @fastify/multipart passes on but does not declare.
  } as never);
  // Any other body is left unread for the handler, which checks the token first and then answers
  // 400 "must be multipart/form-data" (before: a text or untyped body was a 415 telling the
  // uploader to send application/json).
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // Uploads are few and large: a handful at once, the rest wait for a slot or get 503.
  const slots = new AdmissionGate({ name: route.name, ...services.config.symbolUploads, maxWaiting: 16 });

  scope.post(
    route.url,
    { bodyLimit: UPLOAD_LIMITS.requestBytes, ...(route.schema ? { schema: route.schema } : {}) },
    async (request) => {
      const project = await uploadProject(services, request, route.token);
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > UPLOAD_LIMITS.requestBytes) throw payloadTooLarge(UPLOAD_LIMITS.requestBytes);
      if (!request.isMultipart()) throw badRequest('the request must be multipart/form-data with a files field');
      const release = await slots.acquire();
      try {
        const upload = await spoolUpload(request, UPLOAD_LIMITS);
        try {
          if (upload.files.length === 0) throw badRequest(route.noFilesMessage);
          return await route.store(project, upload);
        } finally {
          upload.cleanup();
        }
      } finally {
        release();
      }
    },
  );
}

async function uploadProject(
  services: Services,
  request: FastifyRequest,
  token: UploadRoute<unknown>['token'],
): Promise<UploadProject> {
  const presented = bearerToken(request.headers.authorization);
  if (presented === null || !token.format.test(presented)) throw unauthorized();
  const project = await findProjectByUploadToken(services.meta, token.column, presented);
  if (!project) throw unauthorized();
  if (project.suspended) throw forbidden('the organization is suspended');
  return project;
}
