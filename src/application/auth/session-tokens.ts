/**
 * Signed bearer tokens of users: HS256 JWTs (jose) naming the user — dashboard sessions, CLI
 * password logins and device-flow access tokens. The signing secret comes from SESSION_SECRET,
 * or is generated once into the data folder (mode 0600) for a single process.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';

const AUDIENCE = 'sightline';

export type SessionClaims =
  /** `session`: dashboard sign-in; `cli`: CLI password login (not refreshable). */
  | { userId: string; kind: 'session' | 'cli' }
  /** A device-flow access token, valid only while its refresh-token family is. */
  | { userId: string; kind: 'device'; familyId: string };

/** Claims of a verified token, with its id (the JWT `jti`, which names a recorded session). */
export type VerifiedSession = SessionClaims & { tokenId: string };

export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Signs a token living `ttlSeconds` (default: the session life); answers its id and times too. */
  async issue(
    claims: SessionClaims,
    ttlSeconds = this.ttlSeconds,
  ): Promise<{ token: string; tokenId: string; issuedAt: Date; expiresAt: Date }> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const tokenId = randomBytes(12).toString('base64url');
    const token = await new SignJWT(
      claims.kind === 'device' ? { kind: claims.kind, fid: claims.familyId } : { kind: claims.kind },
    )
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(tokenId)
      .sign(this.key);
    return { token, tokenId, issuedAt: new Date(issuedAt * 1000), expiresAt: new Date(expiresAt * 1000) };
  }

  /** The claims of a valid token, or null for anything else (expired, forged, malformed). */
  async verify(token: string): Promise<VerifiedSession | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        audience: AUDIENCE,
        currentDate: new Date(this.now()),
      });
      if (
        !payload.sub ||
        typeof payload.iat !== 'number' ||
        typeof payload.exp !== 'number' ||
        typeof payload.jti !== 'string'
      )
        return null;
      const tokenId = payload.jti;
      if (payload.kind === 'session' || payload.kind === 'cli')
        return { userId: payload.sub, kind: payload.kind, tokenId };
      if (payload.kind === 'device' && typeof payload.fid === 'string')
        return { userId: payload.sub, kind: 'device', familyId: payload.fid, tokenId };
      return null;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}

/** SESSION_SECRET when configured; otherwise the data folder's generated secret. */
export function loadSessionSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' fails if another process won the race; then its secret is the one to use.
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}
