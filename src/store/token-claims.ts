/**
 * Reads the `name` claim of a JWT access token for the header's user label, with jose's
 * `decodeJwt` (no verification: the page only displays it; the server checks tokens). Returns
 * null for anything that is not a JWT with a non-empty string `name` in its payload.
 */
import { decodeJwt } from 'jose';

export function tokenUserName(token: string | null): string | null {
  if (!token) return null;
  try {
    const name = decodeJwt(token).name;
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  } catch {
    return null; // not a JWT (e.g. an opaque token)
  }
}
