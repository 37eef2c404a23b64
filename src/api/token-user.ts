/**
 * The signed-in user's name from the access token (a JWT in localStorage `access_token`): its `name`
 * claim, else `preferred_username`, else `email`, else `sub`. Used to record who acknowledged an
 * alert. The token is decoded, not verified: the server verified it when it issued it.
 */
import { decodeJwt } from 'jose';
import { readToken } from '../store/token-storage';

/** The user name a token carries, or undefined (no token, not a JWT, no name claim). Never throws. */
export function userFromToken(token: string | null): string | undefined {
  if (!token) return undefined;
  try {
    const claims = decodeJwt(token);
    for (const key of ['name', 'preferred_username', 'email', 'sub']) {
      const v = claims[key];
      if (typeof v === 'string' && v.trim()) return v.trim();
    }
  } catch {
    // Not a JWT (e.g. an opaque development token): no name.
  }
  return undefined;
}

/** The name of the stored token's user, or undefined. */
export function currentUser(): string | undefined {
  return userFromToken(readToken());
}
