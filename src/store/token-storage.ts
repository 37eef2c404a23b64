/**
 * The access token in localStorage under `access_token`, docs/screens.md (Shell and sign-in). Every access is
 * guarded: storage may be missing (Node tests) or blocked (private modes); then nothing is stored.
 */

/** localStorage key of the access token. */
export const TOKEN_KEY = 'access_token';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The stored token, or null. */
export function readToken(): string | null {
  try {
    return storage()?.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

/** Stores `token`, or removes it when null. */
export function writeToken(token: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (token) s.setItem(TOKEN_KEY, token);
    else s.removeItem(TOKEN_KEY);
  } catch {
    // Storage blocked: the token lives in memory for this page only.
  }
}
