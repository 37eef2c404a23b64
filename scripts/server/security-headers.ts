/**
 * Response headers every answer of the server carries (docs/architecture.md: the CSP under which
 * DuckDB-WASM, parquet-wasm and the worker were verified; nothing may load from another origin).
 */

/** The Content-Security-Policy, verbatim from docs/architecture.md plus object/base/frame rules. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Header name -> value, set on every response (HTML, data, JSON, errors, 404s). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** Strict-Transport-Security, sent only on requests that came over HTTPS (1 year). */
export const HSTS = 'max-age=31536000';

/**
 * Content types @fastify/compress may compress (br, gzip): text, JSON, JavaScript, SVG and
 * WebAssembly. Never application/octet-stream (Parquet), and /data/ opts out entirely.
 */
export const COMPRESSIBLE_TYPES = /^(?:text\/(?!event-stream)|application\/(?:javascript|json|manifest\+json|wasm|xml)(?:;|$)|image\/svg\+xml)/;

/** Cache-Control of content-hashed files under /assets/ (Vite names them by hash). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of everything else: revalidate every time (ETag / Last-Modified). */
export const REVALIDATE_CACHE = 'no-cache';
/** Cache-Control of the dataset: revalidate, and never in a shared cache (it is per session). */
export const DATA_CACHE = 'private, no-cache';
