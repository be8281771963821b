/**
 * The dashboard session token. Kept in localStorage so a reload or a second tab stays signed in.
 * The API authenticates by the Authorization header only (no cookie), so there is no CSRF to
 * defend; the price is that script running in the page could read it, which the strict
 * Content-Security-Policy (own scripts only, no inline script, no eval) is there to prevent.
 * Signing out, or any 401, removes it.
 */
const KEY = 'sightline.session';

export function sessionToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeSession(token: string): void {
  localStorage.setItem(KEY, token);
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}
