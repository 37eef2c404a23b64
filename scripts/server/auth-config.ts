/**
 * Sign-in settings, read once from the environment when the server starts (contracts.md §4).
 *
 * - OIDC mode when `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` are all set (the flow
 *   itself is not implemented yet: login answers 501).
 * - Development mode otherwise: `/api/auth/login` signs in "Development User" with no account.
 *   Refused when `NODE_ENV=production` unless `COMPETE_DEV_AUTH=1`.
 * - Tokens are HS256 JWTs signed with `COMPETE_JWT_SECRET` (UTF-8 bytes) or, when unset, 32 random
 *   bytes generated at start (tokens then die with the process).
 */
import { randomBytes } from 'node:crypto';

export type AuthMode = 'development' | 'oidc';

export interface AuthConfig {
  mode: AuthMode;
  /** Whether `/api/auth/login` may issue a development token. */
  devSignInAllowed: boolean;
  /** HS256 key. */
  secret: Uint8Array;
  /** True when the secret came from COMPETE_JWT_SECRET. */
  secretFromEnv: boolean;
}

/** Lifetime of a development token: 8 hours, in seconds. */
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;
/** `iss` claim of development tokens. */
export const DEV_TOKEN_ISSUER = 'compete-dev-sign-in';

/** Reads the auth settings from `env` (default `process.env`). */
export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const oidc = Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);
  const production = env.NODE_ENV === 'production';
  const secretText = env.COMPETE_JWT_SECRET;
  return {
    mode: oidc ? 'oidc' : 'development',
    devSignInAllowed: !oidc && (!production || env.COMPETE_DEV_AUTH === '1'),
    secret: secretText ? new TextEncoder().encode(secretText) : new Uint8Array(randomBytes(32)),
    secretFromEnv: Boolean(secretText),
  };
}

/** The line the server logs at start about sign-in. */
export function describeAuth(config: AuthConfig): string {
  if (config.mode === 'oidc') {
    return 'Sign-in: OpenID Connect is configured (OIDC_ISSUER), but its flow is not implemented yet: /api/auth/login answers 501.';
  }
  if (config.devSignInAllowed) {
    return 'Sign-in: development sign-in is on: the Sign in button signs in "Development User", no account needed.';
  }
  return 'Sign-in: development sign-in is refused (NODE_ENV=production); set COMPETE_DEV_AUTH=1 to allow it, or configure OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET.';
}
