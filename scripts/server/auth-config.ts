/**
 * Sign-in settings, read once from the environment when the server starts (every
 * variable is documented in docs/deployment.md, "Signing in").
 *
 * - OIDC mode when `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` are all set: the
 *   authorization code flow with PKCE, state and nonce (oidc.ts).
 * - Development mode otherwise: `/api/auth/login` signs in "Development User" with no account.
 *   Refused when `NODE_ENV=production` unless `COMPETE_DEV_AUTH=1`.
 * - Tokens are HS256 JWTs signed with `COMPETE_JWT_SECRET` (UTF-8 bytes, at least 32) or, when
 *   unset, 32 random bytes generated at start (tokens then die with the process).
 */
import { randomBytes } from 'node:crypto';

export type AuthMode = 'development' | 'oidc';

/** OpenID Connect client settings (present in OIDC mode only). */
export interface OidcSettings {
  /** `OIDC_ISSUER`: the provider's Issuer Identifier (discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** `OIDC_REDIRECT_URI`, else `<COMPETE_PUBLIC_URL>/api/auth/callback`, else null (the listening origin's, oidc.ts). */
  redirectUri: string | null;
  /** `OIDC_SCOPE`, default `openid profile`. */
  scope: string;
  /** `OIDC_CLIENT_AUTH`: how the client authenticates at the token endpoint; default `client_secret_basic`. */
  clientAuth: 'client_secret_basic' | 'client_secret_post';
}

/** Fastify's `trustProxy` option: false, true, a hop count or a list of addresses / CIDRs. */
export type TrustProxy = boolean | number | string[];

export interface AuthConfig {
  mode: AuthMode;
  /** Whether `/api/auth/login` may issue a development token. */
  devSignInAllowed: boolean;
  /** NODE_ENV=production. */
  production: boolean;
  /** OIDC settings; null in development mode. */
  oidc: OidcSettings | null;
  /** HS256 key of the app's tokens and session cookie. */
  secret: Uint8Array;
  /** True when the secret came from COMPETE_JWT_SECRET. */
  secretFromEnv: boolean;
  /** `COMPETE_PUBLIC_URL` without a trailing slash (e.g. `https://compete.example.com`), or null. */
  publicUrl: string | null;
  /** `COMPETE_LOGOUT_REDIRECTS`: absolute URLs the logout endpoint may redirect to, besides /login. */
  logoutRedirects: string[];
  /** `COMPETE_TRUST_PROXY`: whether X-Forwarded-Proto/-Host/-For are believed. */
  trustProxy: TrustProxy;
}

/** Lifetime of an app token and its session cookie: 8 hours, in seconds. */
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

/** Reads the auth settings from `env` (default `process.env`). Throws on a malformed value, naming it. */
export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const oidcSet = Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);
  const production = env.NODE_ENV === 'production';
  const secretText = env.COMPETE_JWT_SECRET;
  if (secretText !== undefined && Buffer.byteLength(secretText) < 32) {
    throw new Error('invalid COMPETE_JWT_SECRET: use at least 32 characters (e.g. `openssl rand -hex 32`)');
  }
  const publicUrl = env.COMPETE_PUBLIC_URL ? absoluteUrl('COMPETE_PUBLIC_URL', env.COMPETE_PUBLIC_URL).replace(/\/+$/, '') : null;
  return {
    mode: oidcSet ? 'oidc' : 'development',
    devSignInAllowed: !oidcSet && (!production || env.COMPETE_DEV_AUTH === '1'),
    production,
    oidc: oidcSet ? readOidc(env, publicUrl) : null,
    secret: secretText ? new TextEncoder().encode(secretText) : new Uint8Array(randomBytes(32)),
    secretFromEnv: Boolean(secretText),
    publicUrl,
    logoutRedirects: (env.COMPETE_LOGOUT_REDIRECTS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => absoluteUrl('COMPETE_LOGOUT_REDIRECTS', s)),
    trustProxy: parseTrustProxy(env.COMPETE_TRUST_PROXY),
  };
}

function readOidc(env: NodeJS.ProcessEnv, publicUrl: string | null): OidcSettings {
  const issuer = new URL(absoluteUrl('OIDC_ISSUER', env.OIDC_ISSUER ?? ''));
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopback)) {
    throw new Error(`invalid OIDC_ISSUER: ${issuer.href} (https is required except on loopback)`);
  }
  const clientAuth = env.OIDC_CLIENT_AUTH ?? 'client_secret_basic';
  if (clientAuth !== 'client_secret_basic' && clientAuth !== 'client_secret_post') {
    throw new Error(`invalid OIDC_CLIENT_AUTH: ${clientAuth} (client_secret_basic or client_secret_post)`);
  }
  const redirectUri = env.OIDC_REDIRECT_URI
    ? absoluteUrl('OIDC_REDIRECT_URI', env.OIDC_REDIRECT_URI)
    : publicUrl
      ? `${publicUrl}/api/auth/callback`
      : null;
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID ?? '',
    clientSecret: env.OIDC_CLIENT_SECRET ?? '',
    redirectUri,
    scope: env.OIDC_SCOPE?.trim() || 'openid profile',
    clientAuth,
  };
}

/** `value` as a normalised absolute http(s) URL; throws `invalid <name>: <value>` otherwise. */
function absoluteUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // falls through to the error below
  }
  throw new Error(`invalid ${name}: ${value} (an absolute http(s) URL)`);
}

/** `COMPETE_TRUST_PROXY`: unset/0/false -> false; 1/true -> true; `hops:N` -> N; else a comma list of IPs/CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  const hops = /^hops:(\d+)$/.exec(v);
  if (hops) return Number(hops[1]);
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The lines the server logs at start about sign-in. */
export function describeAuth(config: AuthConfig): string[] {
  const lines: string[] = [];
  if (config.oidc) {
    const redirect = config.oidc.redirectUri ?? '<this server>/api/auth/callback (set OIDC_REDIRECT_URI or COMPETE_PUBLIC_URL behind a proxy)';
    lines.push(`Sign-in: OpenID Connect through ${config.oidc.issuer.href} (client ${config.oidc.clientId}, redirect URI ${redirect}).`);
  } else if (config.devSignInAllowed && config.production) {
    lines.push('Sign-in: WARNING: development sign-in is on in production (COMPETE_DEV_AUTH=1): anyone who reaches this server can sign in and read the dataset, no account needed.');
  } else if (config.devSignInAllowed) {
    lines.push('Sign-in: development sign-in is on: the Sign in button signs in "Development User", no account needed. Configure OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET for real accounts.');
  } else {
    lines.push('Sign-in: development sign-in is refused (NODE_ENV=production); set COMPETE_DEV_AUTH=1 to allow it, or configure OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET.');
  }
  if (!config.secretFromEnv) {
    lines.push('Sign-in: COMPETE_JWT_SECRET is not set: a random key was generated, so every session ends when the server stops.');
  }
  return lines;
}
