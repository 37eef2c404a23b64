/** The server's auth endpoints (docs/deployment.md, Signing in): `GET /api/auth/config` and the logout URL. */

export type AuthMode = 'development' | 'oidc';

/**
 * The server's sign-in mode, or null when the endpoint is missing or answers something else
 * (e.g. under `vite` dev without the server). Never throws.
 */
export async function fetchAuthMode(signal?: AbortSignal): Promise<AuthMode | null> {
  try {
    const response = await fetch('/api/auth/config', { headers: { accept: 'application/json' }, signal });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const mode = body && typeof body === 'object' ? (body as { mode?: unknown }).mode : undefined;
    return mode === 'development' || mode === 'oidc' ? mode : null;
  } catch {
    return null;
  }
}

/** The logout endpoint URL for a page at `origin` (e.g. `http://localhost:8080`): redirect_uri = origin/login. */
export function logoutUrl(origin: string): string {
  return `/api/auth/logout?redirect_uri=${encodeURIComponent(`${origin}/login`)}`;
}
