/**
 * The app's own tokens: HS256 JWTs signed by this server (jose), handed to the page at
 * `/auth/callback?token=` and kept in the HttpOnly session cookie (session.ts). Claims: `sub`,
 * `name` (shown as the header's user label), `idp` (`development` or the OIDC issuer that
 * vouched for the user), `iss` = `aud` = `compete`, `iat`, `exp` = iat + 8 h.
 */
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
    .sign(secret);
  return { token, exp };
}

/**
 * Verifies `token`: HS256 only, signature by `secret`, `iss`/`aud` = compete, not expired (no
 * clock tolerance), `sub` present and `idp` equal to `expectedIdp` (so a development token is
 * refused by a server configured for OIDC with the same secret). Returns the user, or null for
 * any failure: a missing, malformed, tampered, expired or foreign token.
 */
export async function verifyAppToken(
  token: string | undefined,
  secret: Uint8Array,
  expectedIdp: string,
): Promise<AppUser | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    if (payload.idp !== expectedIdp || !payload.sub) return null;
    return { sub: payload.sub, idp: expectedIdp, ...(typeof payload.name === 'string' ? { name: payload.name } : {}) };
  } catch {
    return null;
  }
}
