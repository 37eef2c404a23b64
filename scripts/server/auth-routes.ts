/**
 * The auth endpoints (docs/deployment.md, Signing in), the only /api routes the server
 * answers itself; every other /api path belongs to the worker behind the page's fetch interceptor.
 *
 * - `GET /api/auth/config`   -> `{ mode: 'development' | 'oidc' }`
 * - `GET /api/auth/login`    -> development: session cookie + 302 `/auth/callback?token=<JWT>`
 *                               (403 when refused); OIDC: 302 to the provider (oidc.ts)
 * - `GET /api/auth/callback` -> OIDC: checks the provider's answer, session cookie + 302
 *                               `/auth/callback?token=<JWT>`; development: 302 `/login`
 * - `GET /api/auth/logout?redirect_uri=` -> revokes the request's token (cookie and Bearer,
 *                               session.ts endSession) and clears the cookie; 302 to the app's own
 *                               /login (relative, or on COMPETE_PUBLIC_URL, else on the listening
 *                               origin) or a COMPETE_LOGOUT_REDIRECTS URL; 400 for any other target
 */
import type { FastifyInstance } from 'fastify';
import type { AuthConfig } from './auth-config';
import { sendError } from './errors';
import { createOidcFlow } from './oidc';
import { isAllowedLogoutRedirect, ownOrigins } from './redirect';
import type { RevokedTokens } from './revocations';
import { clearSessionCookie, endSession, setSessionCookie } from './session';
import { DEV_USER, signAppToken } from './tokens';

export { DEV_USER };

/**
 * Registers the four auth routes on `app`; `log` receives one line per notable event; a logout
 * adds its token to `revoked`, the list the `/data/` routes check (session.ts requireSession).
 */
export function registerAuthRoutes(app: FastifyInstance, config: AuthConfig, log: (line: string) => void, revoked: RevokedTokens): void {
  const flow = config.oidc ? createOidcFlow(config.oidc, config.secret, log) : null;

  app.get('/api/auth/config', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { mode: config.mode };
  });

  app.get('/api/auth/login', async (request, reply) => {
    if (flow) return flow.login(request, reply);
    if (!config.devSignInAllowed) {
      return sendError(
        reply,
        403,
        'forbidden',
        'development sign-in is disabled in production: set COMPETE_DEV_AUTH=1 or configure OpenID Connect',
      );
    }
    const { token, exp } = await signAppToken(DEV_USER, config.secret);
    setSessionCookie(request, reply, token, exp);
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/auth/callback?token=${encodeURIComponent(token)}`, 302);
  });

  app.get('/api/auth/callback', async (request, reply) => {
    if (flow) return flow.callback(request, reply);
    return reply.redirect('/login', 302);
  });

  app.get<{ Querystring: { redirect_uri?: string | string[] } }>('/api/auth/logout', async (request, reply) => {
    // revoked whatever the redirect: the user asked to end the session
    await endSession(request, config, revoked);
    clearSessionCookie(request, reply);
    reply.header('cache-control', 'no-store');
    const raw = request.query.redirect_uri;
    if (raw === undefined) return reply.redirect('/login', 302);
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (Array.isArray(raw) || !isAllowedLogoutRedirect(value, ownOrigins(request, config.publicUrl), config.logoutRedirects)) {
      return sendError(reply, 400, 'bad_request', `invalid redirect_uri: ${value}`);
    }
    return reply.redirect(value, 302);
  });
}
