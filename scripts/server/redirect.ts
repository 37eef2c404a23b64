/**
 * Validation of the logout `redirect_uri`: the server only ever redirects to the app's own /login
 * page or to a URL listed in COMPETE_LOGOUT_REDIRECTS, so the logout endpoint cannot be used as an
 * open redirect (OWASP "Unvalidated Redirects"). The app's own origins come from the server
 * (COMPETE_PUBLIC_URL, else the socket it listens on), never from a request header: Host,
 * X-Forwarded-Host and Origin are whatever the client or a proxy in front of it says.
 */
import type { AddressInfo } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { FastifyRequest } from 'fastify';

/**
 * True when `value` is the app's own /login on one of `origins` (isOwnLoginUrl) or, as an absolute
 * http(s) URL, equals one of `allowed` exactly once both are normalised by the URL parser (no
 * prefix matching).
 */
export function isAllowedLogoutRedirect(value: string, origins: readonly string[], allowed: readonly string[]): boolean {
  if (isOwnLoginUrl(value, origins)) return true;
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
 * with a query or fragment), or an absolute http(s) URL whose origin is one of `origins` (the
 * app's own `scheme://host:port`s) and whose path is exactly `/login`. Everything else
 * (other hosts, `//host`, `/%2F%2Fhost`, `http:host`, backslashes, control characters,
 * credentials in the URL) is refused.
 */
export function isOwnLoginUrl(value: string, origins: readonly string[]): boolean {
  if (hasUnsafeCharacter(value)) return false;
  if (/^\/login(?:[?#].*)?$/.test(value)) return true;
  if (!/^https?:\/\/[^/]/i.test(value)) return false;
  const url = parseUrl(value);
  if (!url) return false;
  const own = origins.some((origin) => parseUrl(origin)?.origin === url.origin);
  return own && url.pathname === '/login' && url.username === '' && url.password === '';
}

/**
 * The app's own `scheme://host:port`s: COMPETE_PUBLIC_URL's (`publicUrl`), else those of the
 * socket the server listens on. Never the request's Host or X-Forwarded-* headers: the client
 * chooses those, so a check against them lets `Host: evil.example` approve `http://evil.example/login`.
 */
export function ownOrigins(request: FastifyRequest, publicUrl: string | null): string[] {
  return publicUrl ? [new URL(publicUrl).origin] : listeningOrigins(request.server.server.address());
}

/**
 * The origins a browser reaches a server listening at `address` by, as `http://host:port`: that
 * address, or every interface's address (of the family) when it listens on all of them, plus
 * `localhost` when loopback is among them. Derived from the socket and the machine only, so no
 * client can add to it; a proxy's public name needs COMPETE_PUBLIC_URL. Empty off TCP.
 */
export function listeningOrigins(
  address: AddressInfo | string | null,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  if (address === null || typeof address === 'string') return [];
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const ips = wildcard
    ? Object.values(interfaces)
        .flatMap((list) => list ?? [])
        .filter((info) => address.address === '::' || info.family === 'IPv4')
        .map((info) => info.address)
    : [address.address];
  const hosts = ips.map((ip) => (ip.includes(':') ? `[${ip}]` : ip));
  if (wildcard || ips.some(isLoopback)) hosts.push('localhost');
  const origins: string[] = [];
  for (const host of hosts) {
    const url = parseUrl(`http://${host}:${address.port}`);
    if (url && !origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

/**
 * The origin of `origins` whose host is `host` (the request's Host), else the first: a browser on
 * `http://localhost:8080` keeps its own origin (and cookies) while the answer stays one of the
 * server's origins whatever the header says.
 */
export function preferredOrigin(origins: readonly string[], host: string | undefined): string | undefined {
  const wanted = host?.toLowerCase();
  return origins.find((origin) => parseUrl(origin)?.host === wanted) ?? origins[0];
}

/** `value` parsed as an absolute URL, or null (URL.parse needs Node 20.18; engines say 20). */
function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** 127.0.0.0/8, ::1, or an IPv4-mapped loopback address. */
function isLoopback(ip: string): boolean {
  return /^(?:::ffff:)?127\./i.test(ip) || ip === '::1';
}

/** Backslash, whitespace or a control character: browsers rewrite these in URLs, so refuse them. */
function hasUnsafeCharacter(value: string): boolean {
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || ch === '\\' || /\s/.test(ch)) return true;
  }
  return false;
}
