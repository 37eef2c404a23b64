/**
 * The app's own tokens: HS256 JWTs signed by this server (jose), handed to the page at
 * `/auth/callback?token=` and kept in the HttpOnly session cookie (session.ts). Claims: `sub`,
 * `name` (shown as the header's user label), `idp` (`development` or the OIDC issuer that
 * vouched for the user), `iss` = `aud` = `compete`, `iat`, `exp` = iat + 8 h, `jti` a random UUID (two
 * sign-ins in the same second get two tokens, so that logging out of one leaves the other).
 */
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { TOKEN_LIFETIME_SECONDS } from './auth-config';

/** `iss` and `aud` of every app token. */
export const TOKEN_ISSUER = 'compete';
export const TOKEN_AUDIENCE = 'compete';
/** `idp` claim of a development sign-in. */
export const DEV_IDP = 'development';

/** The signed-in user a token speaks for. */
export interface AppUser {
  sub: string;
  /** Display name; absent when the identity provider gave none. */
  name?: string;
  /** `development`, or the OIDC issuer URL. */
  idp: string;
}

/** Claims of a development token. */
export const DEV_USER: AppUser = { sub: 'dev-user', name: 'Development User', idp: DEV_IDP };

/** A signed token and the instant it expires (seconds since the epoch). */
export interface SignedToken {
  token: string;
  exp: number;
}

/** Signs a token for `user`, valid from now for `lifetimeSeconds` (default 8 h). */
export async function signAppToken(
  user: AppUser,
  secret: Uint8Array,
  lifetimeSeconds = TOKEN_LIFETIME_SECONDS,
): Promise<SignedToken> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + lifetimeSeconds;
  const claims: Record<string, string> = { idp: user.idp };
  if (user.name) claims.name = user.name;
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.sub)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(secret);
  return { token, exp };
}

/** A token that verifyToken accepted: its user, its id (tokenId) and its expiry (seconds since the epoch). */
export interface VerifiedToken {
  user: AppUser;
  id: string;
  exp: number;
}

/**
 * The id of a token, under which a logout revokes it (revocations.ts): the SHA-256 (base64url) of
 * its signed part, `<header>.<payload>`. Any string that passes verification with the same claims
 * has that same signed part (the signature covers those exact bytes; only the signature's own
 * text could be written another way), so no other spelling of a revoked token gets through; and a
 * token without a `jti` (not one this server signs) has an id too.
 */
export function tokenId(token: string): string {
  return createHash('sha256').update(token.slice(0, token.lastIndexOf('.'))).digest('base64url');
}

/**
 * Verifies `token`: HS256 only, signature by `secret`, `iss`/`aud` = compete, not expired (no
 * clock tolerance), `sub` present and `idp` equal to `expectedIdp` (so a development token is
 * refused by a server configured for OIDC with the same secret). Returns the user with the
 * token's id and expiry, or null for any failure: a missing, malformed, tampered, expired or
 * foreign token. Whether it was logged out is session.ts's question.
 */
export async function verifyToken(
  token: string | undefined,
  secret: Uint8Array,
  expectedIdp: string,
): Promise<VerifiedToken | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    if (payload.idp !== expectedIdp || !payload.sub || payload.exp === undefined) return null;
    const user: AppUser = { sub: payload.sub, idp: expectedIdp, ...(typeof payload.name === 'string' ? { name: payload.name } : {}) };
    return { user, id: tokenId(token), exp: payload.exp };
  } catch {
    return null;
  }
}

/** The user of `token` as verifyToken checks it, or null. */
export async function verifyAppToken(
  token: string | undefined,
  secret: Uint8Array,
  expectedIdp: string,
): Promise<AppUser | null> {
  return (await verifyToken(token, secret, expectedIdp))?.user ?? null;
}
