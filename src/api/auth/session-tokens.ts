/**
 * Dashboard session tokens: HS256 JWTs (jose) naming the user. The signing secret comes from
 * SESSION_SECRET, or is generated once into the data folder (mode 0600) for a single process.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';

const AUDIENCE = 'sightline';

export interface SessionClaims {
  userId: string;
  /** `session`: dashboard sign-in; `cli`: CLI password login (not refreshable). */
  kind: 'session' | 'cli';
}

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

  async issue(claims: SessionClaims): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const token = await new SignJWT({ kind: claims.kind })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.key);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The claims of a valid token, or null for anything else (expired, forged, malformed). */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        audience: AUDIENCE,
        currentDate: new Date(this.now()),
      });
      const kind = payload.kind === 'cli' ? 'cli' : payload.kind === 'session' ? 'session' : null;
      if (!payload.sub || !kind) return null;
      return { userId: payload.sub, kind };
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
