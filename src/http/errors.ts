/**
 * The service's error model. Routes throw HttpError; the error handler turns it into the spec's
 * answer: `{"error": "<message>"}`, except 401 whose body is empty.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (): HttpError => new HttpError(401, 'unauthorized');
export const forbidden = (message = 'Access denied'): HttpError => new HttpError(403, message);
export const notFound = (message = 'not found'): HttpError => new HttpError(404, message);
export const unprocessable = (message: string): HttpError => new HttpError(422, message);
export const payloadTooLarge = (limitBytes: number): HttpError =>
  new HttpError(413, `request body is over the ${formatBytes(limitBytes)} limit (measured after decompression)`);
export const serviceUnavailable = (message: string, retryAfterSeconds: number): HttpError =>
  new HttpError(503, message, { 'Retry-After': String(retryAfterSeconds) });

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
