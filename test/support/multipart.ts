/** multipart/form-data bodies for the upload routes' tests. */
import { randomBytes } from 'node:crypto';

export interface FormFile {
  name: string;
  content: string | Buffer;
}

/**
 * A form of files (each under the field `files`) and text fields, the files first unless
 * `fieldsFirst`; a file part carries `fileContentType` when one is given.
 */
export function multipartForm(
  files: readonly FormFile[],
  fields: Record<string, string> = {},
  options: { fieldsFirst?: boolean; fileContentType?: string } = {},
): { body: Buffer; contentType: string } {
  const boundary = `----sightline${randomBytes(6).toString('hex')}`;
  const typeLine = options.fileContentType ? `Content-Type: ${options.fileContentType}\r\n` : '';
  const fileParts = files.flatMap((file) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\n${typeLine}\r\n`,
    ),
    Buffer.from(file.content),
    Buffer.from('\r\n'),
  ]);
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const parts = options.fieldsFirst ? [...fieldParts, ...fileParts] : [...fileParts, ...fieldParts];
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
