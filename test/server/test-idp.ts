/**
 * A real OpenID Connect provider for tests: `oidc-provider` (panva) on 127.0.0.1, port 0, with
 * its development login form (any login, any password; the login becomes the account id), one
 * confidential client (client_secret_basic, authorization code, PKCE required) and consent
 * granted automatically (`loadExistingGrant`, the library's documented first-party pattern).
 * Accounts' `name` claims come from ACCOUNT_NAMES (a login not listed gets no name).
 *
 * Two steps because each side needs the other's URL: `listenTestIdp()` binds the port (so the
 * issuer URL exists before the app server starts), `idp.start(redirectUri)` builds the provider.
 * Works on Node 20 (it prints "Unsupported runtime" and quick-start warnings; both are harmless
 * for tests).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** login -> `name` claim. */
export const ACCOUNT_NAMES: Readonly<Record<string, string>> = { dana: 'Dana Analyst' };
export const TEST_CLIENT_ID = 'compete-test';
export const TEST_CLIENT_SECRET = 'compete-test-client-secret';

export interface TestIdp {
  /** Issuer Identifier, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  issuer: string;
  /** Builds the provider with one client whose only redirect URI is `redirectUri`. */
  start(redirectUri: string): void;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Binds 127.0.0.1 on a free port; requests answer 503 until `start()`. */
export async function listenTestIdp(): Promise<TestIdp> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end('identity provider not started');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    start(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          redirect_uris: [redirectUri],
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_basic',
        }],
        claims: { openid: ['sub'], profile: ['name'] },
        pkce: { required: () => true },
        cookies: { keys: ['test-idp-cookie-signing-key'] },
        // Explicit lifetimes (seconds) keep the library from printing a notice for each default.
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
          accountId: id,
          claims: () => ({ sub: id, ...(ACCOUNT_NAMES[id] ? { name: ACCOUNT_NAMES[id] } : {}) }),
        }),
        loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
          const { client, session, result } = ctx.oidc;
          if (!client || !session?.accountId) return undefined;
          const grantId = (result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
          if (grantId) return ctx.oidc.provider.Grant.find(grantId);
          const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
          grant.addOIDCScope('openid profile');
          await grant.save();
          return grant;
        },
      });
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
