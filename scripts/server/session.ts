/**
 * The session cookie: set at sign-in (development and OIDC), checked on every `/data/` request,
 * cleared at logout. HttpOnly (page scripts never see it), SameSite=Lax (sent on the top-level
 * navigation back from the identity provider, not on cross-site subrequests), Secure when the
 * request came over HTTPS (X-Forwarded-Proto counts only with COMPETE_TRUST_PROXY), path `/`,
 * expiring with the token it holds. Its value is the app token of tokens.ts. A logout also
 * revokes the token on the server (revocations.ts), so that neither the cookie nor the same token
 * as a Bearer header opens `/data/` again.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AuthConfig } from './auth-config';
import { sendError } from './errors';
import type { RevokedTokens } from './revocations';
import { DEV_IDP, verifyToken, type AppUser } from './tokens';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'compete_session';

/** Cookie attributes shared by setting and clearing (a clear must name the same path). */
function baseAttributes(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/** Sets the session cookie to `token`, expiring at `exp` (seconds since the epoch). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, exp: number): void {
  const maxAge = Math.max(0, exp - Math.floor(Date.now() / 1000));
  reply.setCookie(SESSION_COOKIE, token, { ...baseAttributes(request), maxAge, expires: new Date(exp * 1000) });
}

/** Clears the session cookie (an expired, empty cookie of the same name and path). */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, baseAttributes(request));
}

/** The `idp` claim a session must carry under `config`: `development`, or the OIDC issuer. */
export function expectedIdp(config: AuthConfig): string {
  return config.oidc ? config.oidc.issuer.href : DEV_IDP;
}

/**
 * The token of a request: the session cookie, else an `Authorization: Bearer` header (for
 * scripts and benchmarks; the page relies on the cookie).
 */
function requestToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] || bearerToken(request);
}

/** The token of an `Authorization: Bearer` header, or undefined. */
function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * The signed-in user of `request`, or null: for what tokens.ts verifyToken refuses, and for a token
 * logged out (`revoked`).
 */
export async function sessionUser(request: FastifyRequest, config: AuthConfig, revoked: RevokedTokens): Promise<AppUser | null> {
  const verified = await verifyToken(requestToken(request), config.secret, expectedIdp(config));
  return verified && !revoked.has(verified.id) ? verified.user : null;
}

/**
 * Logs out the tokens `request` carries, the session cookie and an `Authorization: Bearer` header
 * both: each valid one is revoked until it expires. An invalid or missing token is ignored (there
 * is nothing to end).
 */
export async function endSession(request: FastifyRequest, config: AuthConfig, revoked: RevokedTokens): Promise<void> {
  for (const token of new Set([request.cookies[SESSION_COOKIE], bearerToken(request)])) {
    const verified = await verifyToken(token, config.secret, expectedIdp(config));
    if (verified) revoked.revoke(verified.id, verified.exp);
  }
}

/**
 * onRequest hook of the `/data/` routes: 401 JSON (`unauthorized`, `WWW-Authenticate: Bearer`)
 * unless the request carries a valid session not logged out (`revoked`). Runs before the file is
 * looked up, so a refused request learns nothing about which files exist.
 */
export function requireSession(config: AuthConfig, revoked: RevokedTokens): onRequestAsyncHookHandler {
  return async (request, reply) => {
    if (await sessionUser(request, config, revoked)) return;
    reply.header('www-authenticate', 'Bearer realm="compete"');
    reply.header('cache-control', 'no-store');
    return sendError(reply, 401, 'unauthorized', 'sign in to read the dataset: no valid session');
  };
}
