/**
 * Validation of the logout `redirect_uri`: the server only ever redirects to the app's own /login
 * page or to a URL listed in COMPETE_LOGOUT_REDIRECTS, so the logout endpoint cannot be used as an
 * open redirect (OWASP "Unvalidated Redirects").
 */

/**
 * True when `value` is the app's own /login (isOwnLoginUrl) or, as an absolute http(s) URL, equals
 * one of `allowed` exactly once both are normalised by the URL parser (no prefix matching).
 */
export function isAllowedLogoutRedirect(value: string, origin: string, allowed: readonly string[]): boolean {
  if (isOwnLoginUrl(value, origin)) return true;
  if (hasUnsafeCharacter(value) || !/^https?:\/\/[^/]/i.test(value)) return false;
  try {
    const href = new URL(value).href;
    return allowed.some((a) => new URL(a).href === href);
  } catch {
    return false;
  }
}

/**
 * True when `value` names the app's own `/login`: either the relative path `/login` (optionally
 * with a query or fragment), or an absolute http(s) URL whose origin equals `origin` (the
 * request's own `http://host:port`) and whose path is exactly `/login`. Everything else
 * (other hosts, `//host`, `/%2F%2Fhost`, `http:host`, backslashes, control characters,
 * credentials in the URL) is refused.
 */
export function isOwnLoginUrl(value: string, origin: string): boolean {
  if (hasUnsafeCharacter(value)) return false;
  if (/^\/login(?:[?#].*)?$/.test(value)) return true;
  if (!/^https?:\/\/[^/]/i.test(value)) return false;
  let url: URL;
  let own: URL;
  try {
    url = new URL(value);
    own = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === own.origin && url.pathname === '/login' && url.username === '' && url.password === '';
}

/** Backslash, whitespace or a control character: browsers rewrite these in URLs, so refuse them. */
function hasUnsafeCharacter(value: string): boolean {
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || ch === '\\' || /\s/.test(ch)) return true;
  }
  return false;
}
