/**
 * The auth endpoints (contracts.md §4, product-spec §7 "Auth"), the only /api routes the server
 * answers itself; every other /api path belongs to the worker behind the page's fetch interceptor.
 *
 * - `GET /api/auth/config`   -> `{ mode: 'development' | 'oidc' }`
 * - `GET /api/auth/login`    -> 302 `/auth/callback?token=<JWT>` (development); 403 when refused; 501 in OIDC mode
 * - `GET /api/auth/callback` -> 302 `/auth/callback` (placeholder for the OIDC code exchange)
 * - `GET /api/auth/logout?redirect_uri=` -> 302 to the app's own /login; 400 for any other target
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { DEV_TOKEN_ISSUER, TOKEN_LIFETIME_SECONDS, type AuthConfig } from './auth-config';
import { sendError } from './errors';
import { isOwnLoginUrl } from './redirect';

/** Claims of a development token. */
export const DEV_USER = { sub: 'dev-user', name: 'Development User' } as const;

/** Signs a development token: HS256, `sub`/`name` of DEV_USER, `iat` now, `exp` now + 8 h. */
export async function signDevToken(secret: Uint8Array): Promise<string> {
  return new SignJWT({ name: DEV_USER.name })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(DEV_USER.sub)
    .setIssuer(DEV_TOKEN_ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(secret);
}

/** `http://host:port` of the request as the browser sees it (Host header). */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? request.host}`;
}

/** Registers the four auth routes on `app`; `log` receives one line per notable event. */
export function registerAuthRoutes(app: FastifyInstance, config: AuthConfig, log: (line: string) => void): void {
  app.get('/api/auth/config', async () => ({ mode: config.mode }));

  app.get('/api/auth/login', async (_request, reply) => {
    if (config.mode === 'oidc') {
      log('auth: /api/auth/login in OIDC mode: the OpenID Connect flow is not implemented yet (501)');
      return sendError(reply, 501, 'not_implemented', 'OpenID Connect sign-in is not implemented yet');
    }
    if (!config.devSignInAllowed) {
      return sendError(
        reply,
        403,
        'forbidden',
        'development sign-in is disabled in production: set COMPETE_DEV_AUTH=1 or configure OpenID Connect',
      );
    }
    const token = await signDevToken(config.secret);
    return reply.redirect(`/auth/callback?token=${encodeURIComponent(token)}`, 302);
  });

  app.get('/api/auth/callback', async (_request, reply) => reply.redirect('/auth/callback', 302));

  app.get<{ Querystring: { redirect_uri?: string | string[] } }>('/api/auth/logout', async (request, reply) => {
    const raw = request.query.redirect_uri;
    if (raw === undefined) return reply.redirect('/login', 302);
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (Array.isArray(raw) || !isOwnLoginUrl(value, requestOrigin(request))) {
      return sendError(reply, 400, 'bad_request', `invalid redirect_uri: ${value}`);
    }
    return reply.redirect(value, 302);
  });
}
