/**
 * Password hashing with argon2id (OWASP's first choice), parameters at the library's defaults
 * (m=19 MiB, t=2, p=1). Verification is constant time inside the library.
 */
import { hash, verify } from '@node-rs/argon2';
import { unprocessable } from '../../http/errors.js';

/** Longer passwords are refused before hashing: argon2 cost grows with input. */
export const PASSWORD_MAX_LENGTH = 256;

/** The password rules of register and reset: 422 naming them when broken. */
export function assertPasswordRules(password: string, minLength: number): void {
  if (password.length < minLength || password.length > PASSWORD_MAX_LENGTH)
    throw unprocessable(`password must be ${minLength} to ${PASSWORD_MAX_LENGTH} characters`);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A fixed hash verified when the e-mail is unknown, so sign-in takes as long either way. */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hash('decoy password for unknown accounts');
  return decoyHash;
}
