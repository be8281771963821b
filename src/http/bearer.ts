/**
 * `Authorization: Bearer <token>` exactly as the spec reads it: the value must literally begin
 * with `Bearer ` (that case, one space); anything else is no credential at all.
 */
const BEARER = 'Bearer ';

export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || !header.startsWith(BEARER)) return null;
  const token = header.slice(BEARER.length);
  if (token.length === 0 || token.length > 4096 || /\s/.test(token)) return null;
  return token;
}
