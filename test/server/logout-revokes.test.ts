// Logout ends the session on the server (scripts/server/revocations.ts): the token it held is
// refused afterwards as the session cookie and as a Bearer header, whichever form logged out,
// while a new sign-in, or another session, still opens /data/. The list forgets a token once it
// has expired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { RevokedTokens } from '../../scripts/server/revocations';
import { makeTempSite, rawRequest, setCookies, type TempSite } from './temp-site';

const MANIFEST = '/data/manifest.json';
let site: TempSite;
let server: RunningServer;

beforeAll(async () => {
  site = await makeTempSite();
  server = await startServer({
    distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {},
    env: { COMPETE_JWT_SECRET: 'logout-test-secret-0123456789abcdef' },
  });
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});

/** Signs in (development sign-in); returns the token of the session cookie. */
async function signIn(): Promise<string> {
  const res = await rawRequest(server.url, '/api/auth/login');
  expect(res.status).toBe(302);
  const cookie = setCookies(res).find((c) => c.startsWith('compete_session='));
  const token = cookie?.split(';')[0]?.slice('compete_session='.length) ?? '';
  expect(token).not.toBe('');
  return token;
}

const asCookie = (token: string) => ({ cookie: `compete_session=${token}` });
const asBearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The status of GET /data/manifest.json with the token as cookie and as Bearer header. */
const statuses = async (token: string): Promise<[number, number]> => [
  (await rawRequest(server.url, MANIFEST, asCookie(token))).status,
  (await rawRequest(server.url, MANIFEST, asBearer(token))).status,
];

describe('logout', () => {
  it('refuses the token afterwards as cookie and as Bearer; a new sign-in works', async () => {
    const token = await signIn();
    expect(await statuses(token)).toEqual([200, 200]);
    const out = await rawRequest(server.url, '/api/auth/logout', asCookie(token));
    expect(out.status).toBe(302);
    expect(setCookies(out).some((c) => c.startsWith('compete_session=;'))).toBe(true);
    expect(await statuses(token)).toEqual([401, 401]);
    const fresh = await signIn();
    expect(fresh).not.toBe(token);
    expect(await statuses(fresh)).toEqual([200, 200]);
  });

  it('ends a Bearer session too, and only the session that logs out', async () => {
    const [mine, other] = [await signIn(), await signIn()];
    expect(mine).not.toBe(other);
    expect((await rawRequest(server.url, '/api/auth/logout', asBearer(mine))).status).toBe(302);
    expect(await statuses(mine)).toEqual([401, 401]);
    expect(await statuses(other)).toEqual([200, 200]);
  });

  it('revokes even when the redirect target is refused (400)', async () => {
    const token = await signIn();
    const out = await rawRequest(server.url, `/api/auth/logout?redirect_uri=${encodeURIComponent('https://evil.example/')}`, asCookie(token));
    expect(out.status).toBe(400);
    expect(await statuses(token)).toEqual([401, 401]);
  });

  it('refuses another spelling of a revoked token (its signature written otherwise)', async () => {
    const token = await signIn();
    // the last base64url character of an HMAC-SHA256 signature carries 2 spare bits, which the
    // verifier's decoder ignores: the variant is accepted as the same token
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const variant = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1]!;
    expect(variant).not.toBe(token);
    expect(await statuses(variant)).toEqual([200, 200]);
    await rawRequest(server.url, '/api/auth/logout', asCookie(token));
    expect(await statuses(variant)).toEqual([401, 401]);
  });
});

describe('the revocation list', () => {
  it('holds a token until it expires, and sweeps it out afterwards', () => {
    const list = new RevokedTokens();
    list.revoke('a', 1_000, 100);
    list.revoke('b', 5_000, 100);
    list.revoke('old', 90, 100); // already expired: nothing to hold
    expect([list.has('a', 999), list.has('a', 1_000), list.has('b', 1_000), list.has('old', 100)]).toEqual([true, false, true, false]);
    expect(list.size).toBe(2);
    list.revoke('c', 9_000, 1_000); // a minute or more since the last sweep: expired entries go
    expect(list.size).toBe(2);
    expect([list.has('a', 1_000), list.has('b', 1_000), list.has('c', 1_000)]).toEqual([false, true, true]);
  });
});
