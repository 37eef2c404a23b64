/**
 * How the converter fetches over HTTP (remote provider references, in-network files and tables of
 * contents named by URL): Node's fetch (undici) or an injected one, a per-request time-out,
 * retries with exponential back-off on network errors, time-outs, 429 and 5xx (never on another
 * 4xx such as 404, nor on a host name that does not exist: the answer will not change), and a
 * limit on concurrent requests. Only http(s) is fetched: a URL of another scheme (file:, ftp:,
 * data: ...) is refused before any request, and so is a redirect to one (redirects are followed
 * here, hop by hop), so that a location a publisher wrote never reads a local file.
 */

/** The fetch signature used (the global fetch fits; tests inject a failing or local one). */
export type FetchFn = (url: string, init?: { signal?: AbortSignal; redirect?: 'manual'; method?: 'GET' | 'HEAD' }) => Promise<Response>;

/** Knobs of the HTTP client. */
export interface FetchPolicy {
  fetch: FetchFn;
  /** Milliseconds a request may take: a whole small body (fetchBytes), or the headers of a stream. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First back-off, doubled at each retry (ms). */
  backoffMs: number;
  /** Requests in flight at most (remote provider references). */
  concurrency: number;
}

/** Defaults: 30 s time-out, 3 retries from 500 ms (0.5 + 1 + 2 s), 8 concurrent requests. */
export const DEFAULT_FETCH_POLICY: FetchPolicy = {
  fetch: (url, init) => fetch(url, init),
  timeoutMs: 30_000,
  retries: 3,
  backoffMs: 500,
  concurrency: 8,
};

/** An HTTP answer that is not 2xx; `status` is the HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Redirects followed per request at most (the fetch standard's limit). */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Characters of a location quoted in a message at most (a `data:` URL can be megabytes). */
const SHOWN_CHARS = 500;

/** `location` as quoted in messages: as written, cut after SHOWN_CHARS characters. */
export function shownLocation(location: string): string {
  return location.length > SHOWN_CHARS ? `${location.slice(0, SHOWN_CHARS)}...` : location;
}

/** Why a URL of scheme `protocol` (`file:`) is not fetched. */
export const schemeRefusal = (protocol: string): string => `the ${protocol} scheme is not fetched (http and https only)`;

/**
 * Why `location` is not fetched, or null when it is an absolute http(s) URL; parsed as fetch
 * parses it (`FILE:`, leading blanks and tabs inside the scheme included):
 * `the file: scheme is not fetched (http and https only)`, `not an absolute URL`.
 */
export function refusalOf(location: string): string | null {
  if (!URL.canParse(location)) return 'not an absolute URL';
  const { protocol } = new URL(location);
  return protocol === 'http:' || protocol === 'https:' ? null : schemeRefusal(protocol);
}

/** A location (or a redirect's target) refused before any request to it: see refusalOf. Not retried. */
export class RefusedLocationError extends Error {
  /**
   * @param location as written (quoted cut: shownLocation)
   * @param reason refusalOf's
   * @param redirect the location is the target of a redirect
   */
  constructor(
    readonly location: string,
    readonly reason: string,
    redirect = false,
  ) {
    super(`${redirect ? 'redirect to ' : ''}${shownLocation(location)} refused: ${reason}`);
    this.name = 'RefusedLocationError';
  }
}

/**
 * Whether a failed attempt is worth another: a network error (but a host name that does not exist),
 * a time-out, 429 or 5xx. A name the DNS answers does not exist (`ENOTFOUND`, getaddrinfo's
 * EAI_NONAME) stays so seconds later, as curl's `--retry` also holds; a resolver that cannot answer
 * now (`EAI_AGAIN`) is retried.
 */
const retryable = (e: unknown): boolean =>
  !(e instanceof RefusedLocationError) && (e instanceof HttpError ? e.status === 429 || e.status >= 500 : !unknownHost(e));

/** Whether `e` is fetch's error for a host name that does not exist (its cause's code `ENOTFOUND`). */
const unknownHost = (e: unknown): boolean => (e as { cause?: { code?: unknown } } | null)?.cause?.code === 'ENOTFOUND';

/** One-line reason of a failed request: `HTTP 404 Not Found`, `timed out after 300 ms`, `fetch failed (ENOTFOUND)`. */
export function describeFetchError(e: unknown): string {
  if (e instanceof HttpError) return e.message;
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message} (${cause})` : err.message;
}

/**
 * The response to `url` after its redirects, each target checked before it is requested.
 * @throws RefusedLocationError for a target that is not http(s), also when an injected fetch
 *   followed the redirects itself (`Response.url`); HttpError after MAX_REDIRECTS redirects.
 */
async function follow(url: string, policy: FetchPolicy, signal: AbortSignal, method: 'GET' | 'HEAD'): Promise<Response> {
  let at = url;
  for (let hops = 0; ; hops++) {
    const res = await policy.fetch(at, { signal, redirect: 'manual', ...(method === 'HEAD' ? { method } : {}) });
    const target = REDIRECTS.has(res.status) ? res.headers.get('location') : null;
    if (target === null) {
      const landed = res.url ? refusalOf(res.url) : null;
      if (landed === null) return res;
      await res.body?.cancel().catch(() => {});
      throw new RefusedLocationError(res.url, landed, true);
    }
    await res.body?.cancel().catch(() => {});
    if (hops === MAX_REDIRECTS) throw new HttpError(res.status, `HTTP ${res.status}: more than ${MAX_REDIRECTS} redirects`);
    let next: URL;
    try {
      next = new URL(target, at);
    } catch {
      throw new HttpError(res.status, `HTTP ${res.status}: redirect to an invalid location ${shownLocation(target)}`);
    }
    const refused = refusalOf(next.href);
    if (refused) throw new RefusedLocationError(target, refused, true);
    at = next.href;
  }
}

async function attempt<T>(url: string, policy: FetchPolicy, body: (r: Response) => Promise<T>, wholeBody: boolean, method: 'GET' | 'HEAD'): Promise<T> {
  const refused = refusalOf(url);
  if (refused) throw new RefusedLocationError(url, refused);
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error(`timed out after ${policy.timeoutMs} ms`)), policy.timeoutMs);
  try {
    const res = await follow(url, policy, ac.signal, method);
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new HttpError(res.status, `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
    }
    if (!wholeBody) clearTimeout(timer);
    return await body(res);
  } catch (e) {
    if (ac.signal.aborted && !(e instanceof HttpError)) throw ac.signal.reason as Error;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function withRetries<T>(url: string, policy: FetchPolicy, body: (r: Response) => Promise<T>, wholeBody: boolean, method: 'GET' | 'HEAD' = 'GET'): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(url, policy, body, wholeBody, method);
    } catch (e) {
      if (n >= policy.retries || !retryable(e)) throw e;
      await new Promise((r) => setTimeout(r, policy.backoffMs * 2 ** n));
    }
  }
}

/**
 * The whole body of `url` (the time-out covers headers and body), at most `maxBytes`.
 * @throws RefusedLocationError when `url` or a redirect's target is not http(s), HttpError for a
 *   non-2xx answer, Error for a network error, a time-out or a body over `maxBytes`.
 */
export function fetchBytes(url: string, policy: FetchPolicy, maxBytes = 256 * 1024 * 1024): Promise<Buffer> {
  return withRetries(url, policy, async (res) => {
    const parts: Buffer[] = [];
    let n = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      n += chunk.length;
      if (n > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
      parts.push(Buffer.from(chunk));
    }
    return Buffer.concat(parts);
  }, true);
}

/**
 * A response whose body is to be streamed (a large file): retried until the headers arrive; the
 * time-out covers the headers only. `size` is Content-Length when given.
 * @throws as fetchBytes.
 */
export function fetchStream(url: string, policy: FetchPolicy): Promise<{ body: AsyncIterable<Uint8Array>; size?: number; headers: Headers }> {
  return withRetries(url, policy, async (res) => {
    if (!res.body) throw new Error('empty response');
    const size = Number(res.headers.get('content-length')) || undefined;
    return { body: res.body as unknown as AsyncIterable<Uint8Array>, size, headers: res.headers };
  }, false);
}

/**
 * The headers of a HEAD request to `url` (validators: ETag, Last-Modified, Content-Length), after
 * its redirects, with the policy's time-out and retries.
 * @throws as fetchBytes.
 */
export function fetchHead(url: string, policy: FetchPolicy): Promise<Headers> {
  return withRetries(url, policy, async (res) => {
    await res.body?.cancel().catch(() => {});
    return res.headers;
  }, true, 'HEAD');
}

/**
 * The size of `url` as a HEAD request gives it (Content-Length, bytes), after its redirects, with
 * the policy's time-out and retries; null when the server gives none.
 * @throws as fetchBytes.
 */
export function fetchHeadSize(url: string, policy: FetchPolicy): Promise<number | null> {
  return withRetries(url, policy, async (res) => {
    await res.body?.cancel().catch(() => {});
    const header = res.headers.get('content-length');
    const size = header === null ? NaN : Number(header);
    return Number.isSafeInteger(size) && size >= 0 ? size : null;
  }, true, 'HEAD');
}

/** Runs at most `n` of the given tasks at a time; resolves with their results in order. */
export async function mapLimit<T, R>(items: readonly T[], n: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      out[k] = await task(items[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  return out;
}
