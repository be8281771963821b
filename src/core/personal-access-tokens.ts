/** Rules of personal-access-token creation (spec: Personal access token, Limits). */
export const PAT_NAME_MAX_LENGTH = 100;
export const PAT_EXPIRY_DAYS_MIN = 1;
export const PAT_EXPIRY_DAYS_MAX = 3650;
/** Characters of the token kept for recognising it in lists: `tpp_` and 8 more. */
export const PAT_PREFIX_LENGTH = 12;

export type PatRequest = { ok: true; name: string; expiresInDays: number | null } | { ok: false; message: string };

/** Validates a create body; every violation is a 422 with the message, as the spec says. */
export function parsePatRequest(body: Record<string, unknown>): PatRequest {
  const { name, expiresInDays } = body;
  if (name === undefined || name === null || (typeof name === 'string' && name.trim() === ''))
    return { ok: false, message: 'name is required' };
  if (typeof name !== 'string' || name.trim().length > PAT_NAME_MAX_LENGTH) {
    return { ok: false, message: `name must be a string of at most ${PAT_NAME_MAX_LENGTH} characters` };
  }
  if (expiresInDays === undefined || expiresInDays === null)
    return { ok: true, name: name.trim(), expiresInDays: null };
  if (
    typeof expiresInDays !== 'number' ||
    !Number.isInteger(expiresInDays) ||
    expiresInDays < PAT_EXPIRY_DAYS_MIN ||
    expiresInDays > PAT_EXPIRY_DAYS_MAX
  ) {
    return {
      ok: false,
      message: `expiresInDays must be an integer from ${PAT_EXPIRY_DAYS_MIN} to ${PAT_EXPIRY_DAYS_MAX}`,
    };
  }
  return { ok: true, name: name.trim(), expiresInDays };
}
