/**
 * OpenID Connect sign-in (docs/deployment.md, Signing in): the authorization code flow with PKCE (S256), state
 * and nonce, through openid-client v6.
 *
 * - login:    discovers the provider (once, lazily; retried after a failure), draws a PKCE
 *             verifier, a state and a nonce, keeps them in a short-lived encrypted HttpOnly cookie
 *             (`compete_oidc`, path /api/auth/callback, 10 min), and redirects to the provider.
 * - callback: openid-client checks state, the code exchange with the PKCE verifier, and the ID
 *             token's issuer, audience, expiry and nonce. The user's `name` comes from the ID token,
 *             else from the UserInfo endpoint. The provider's tokens stay on the server (dropped
 *             after this request); the browser gets the app's own token (tokens.ts): a session
 *             cookie and a redirect to `/auth/callback?token=<app token>`.
 * Failures answer 400 (a refused or tampered response, a missing or expired transaction) or 502
 * (the provider cannot be reached) with a JSON error body, and are logged.
 */
import { hkdfSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EncryptJWT, jwtDecrypt } from 'jose';
import * as oidc from 'openid-client';
import type { OidcSettings } from './auth-config';
import { sendError } from './errors';
import { ownOrigins, preferredOrigin } from './redirect';
import { setSessionCookie } from './session';
import { signAppToken } from './tokens';

/** Cookie holding the state, nonce and PKCE verifier between login and callback. */
export const OIDC_TRANSACTION_COOKIE = 'compete_oidc';
const TRANSACTION_PATH = '/api/auth/callback';
const TRANSACTION_SECONDS = 600;

interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export interface OidcFlow {
  /** `GET /api/auth/login`: 302 to the provider's authorization endpoint. */
  login(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** `GET /api/auth/callback`: 302 to `/auth/callback?token=` with the session cookie set. */
  callback(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/** Builds the flow for `settings`; tokens are signed with `secret`; `log` gets one line per failure. */
export function createOidcFlow(settings: OidcSettings, secret: Uint8Array, log: (line: string) => void): OidcFlow {
  const transactionKey = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), 'compete oidc transaction', 32));
  let discovered: Promise<oidc.Configuration> | null = null;

  const configuration = (): Promise<oidc.Configuration> => {
    discovered ??= discover(settings).catch((error: unknown) => {
      discovered = null;
      throw error;
    });
    return discovered;
  };

  /**
   * OIDC_REDIRECT_URI, else COMPETE_PUBLIC_URL's callback (auth-config.ts), else the callback on
   * one of the listening origins: the Host header only picks among those (a browser on localhost
   * keeps its cookies), so a forged Host cannot send the provider's code elsewhere.
   */
  const redirectUriOf = (request: FastifyRequest): string =>
    settings.redirectUri ?? `${preferredOrigin(ownOrigins(request, null), request.host) ?? ''}${TRANSACTION_PATH}`;

  const cookieAttributes = (request: FastifyRequest) =>
    ({ path: TRANSACTION_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' }) as const;

  return {
    async login(request, reply) {
      let config: oidc.Configuration;
      try {
        config = await configuration();
      } catch (error) {
        log(`auth: OpenID Connect discovery of ${settings.issuer.href} failed: ${messageOf(error)}`);
        return sendError(reply, 502, 'unavailable', 'the identity provider cannot be reached; try again later');
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const tx: Transaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier,
        redirectUri: redirectUriOf(request),
      };
      const sealed = await new EncryptJWT({ ...tx })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(`${TRANSACTION_SECONDS}s`)
        .encrypt(transactionKey);
      reply.setCookie(OIDC_TRANSACTION_COOKIE, sealed, { ...cookieAttributes(request), maxAge: TRANSACTION_SECONDS });
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: tx.redirectUri,
        scope: settings.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: tx.state,
        nonce: tx.nonce,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(target.href, 302);
    },

    async callback(request, reply) {
      const sealed = request.cookies[OIDC_TRANSACTION_COOKIE];
      reply.clearCookie(OIDC_TRANSACTION_COOKIE, cookieAttributes(request));
      reply.header('cache-control', 'no-store');
      const tx = sealed ? await openTransaction(sealed, transactionKey) : null;
      if (!tx) {
        log('auth: OpenID Connect callback without a valid sign-in transaction (expired, or started in another browser)');
        return sendError(reply, 400, 'bad_request', 'sign-in expired or was not started here: sign in again');
      }
      const currentUrl = new URL(tx.redirectUri);
      const query = request.url.indexOf('?');
      if (query >= 0) currentUrl.search = request.url.slice(query);
      try {
        const config = await configuration();
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: tx.verifier,
          expectedState: tx.state,
          expectedNonce: tx.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error('the provider returned no ID token');
        let name = displayName(claims);
        if (!name && config.serverMetadata().userinfo_endpoint) {
          name = displayName(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub));
        }
        const { token, exp } = await signAppToken({ sub: claims.sub, idp: settings.issuer.href, ...(name ? { name } : {}) }, secret);
        setSessionCookie(request, reply, token, exp);
        return reply.redirect(`/auth/callback?token=${encodeURIComponent(token)}`, 302);
      } catch (error) {
        const unreachable = error instanceof TypeError || (error instanceof Error && /fetch failed|ECONNREFUSED/.test(error.message));
        log(`auth: OpenID Connect sign-in failed: ${messageOf(error)}`);
        return unreachable
          ? sendError(reply, 502, 'unavailable', 'the identity provider cannot be reached; try again later')
          : sendError(reply, 400, 'bad_request', `sign-in failed: ${messageOf(error)}`);
      }
    },
  };
}

/** Discovery (`<issuer>/.well-known/openid-configuration`); plain HTTP only for a loopback issuer (auth-config.ts). */
async function discover(settings: OidcSettings): Promise<oidc.Configuration> {
  const auth =
    settings.clientAuth === 'client_secret_post'
      ? oidc.ClientSecretPost(settings.clientSecret)
      : oidc.ClientSecretBasic(settings.clientSecret);
  const insecure = settings.issuer.protocol === 'http:';
  return oidc.discovery(settings.issuer, settings.clientId, { client_secret: settings.clientSecret }, auth,
    insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
}

async function openTransaction(sealed: string, key: Uint8Array): Promise<Transaction | null> {
  try {
    const { payload } = await jwtDecrypt(sealed, key, { requiredClaims: ['exp'] });
    const { state, nonce, verifier, redirectUri } = payload;
    if ([state, nonce, verifier, redirectUri].every((v) => typeof v === 'string')) {
      return { state, nonce, verifier, redirectUri } as Transaction;
    }
    return null;
  } catch {
    return null;
  }
}

/** `name`, else `preferred_username`, else `email` of an ID token or UserInfo response. */
function displayName(claims: Record<string, unknown>): string | undefined {
  for (const key of ['name', 'preferred_username', 'email']) {
    const value = claims[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** The error's message, with the OAuth `error` code and description of a provider's answer. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const oauth = error as Error & { error?: unknown; error_description?: unknown };
  const code = typeof oauth.error === 'string' ? ` (${oauth.error}${typeof oauth.error_description === 'string' ? `: ${oauth.error_description}` : ''})` : '';
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${code}${cause}`;
}
