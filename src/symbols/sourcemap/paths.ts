/**
 * Served paths: how a frame's script URL and an uploaded file (urlPrefix + its name) are compared.
 * The origin, query and fragment are dropped (`~/` in a urlPrefix stands for any origin, as in
 * sentry-cli), so `https://shop.example.com/assets/main.js?v=2`, `~/assets/main.js` and
 * `app:///assets/main.js` all read `/assets/main.js`; a Node path or `file://` URL keeps its path.
 */
import path from 'node:path';

export const MAX_SCRIPT_PATH = 1024;

/** The served path of a URL, file URL, absolute path or `~/`-prefixed name; null when nothing is left. */
export function scriptPath(url: string): string | null {
  if (url.length > 4 * MAX_SCRIPT_PATH) return null;
  let rest = url.trim();
  if (rest.startsWith('~')) rest = rest.slice(1);
  else {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
    if (scheme) {
      rest = rest.slice(scheme[0].length);
      const slash = rest.indexOf('/');
      rest = slash < 0 ? '/' : rest.slice(slash);
    }
  }
  const end = rest.search(/[?#]/);
  if (end >= 0) rest = rest.slice(0, end);
  let decoded = rest;
  try {
    decoded = decodeURI(rest);
  } catch {
    // Malformed escapes: compare the text as it is.
  }
  const normalized = path.posix.normalize(`/${decoded}`).replace(/^(\/\.\.)+/, '');
  if (normalized === '/' || normalized === '' || normalized.length > MAX_SCRIPT_PATH) return null;
  return normalized;
}

/** The served path of an uploaded file: its name (a relative path in the upload) under urlPrefix. */
export function uploadedPath(urlPrefix: string, fileName: string): string | null {
  const prefix = urlPrefix === '' ? '~/' : urlPrefix.endsWith('/') ? urlPrefix : `${urlPrefix}/`;
  return scriptPath(`${prefix}${fileName.replace(/^[/\\]+/, '').replace(/\\/g, '/')}`);
}
