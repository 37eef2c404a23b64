/**
 * Remote provider references (CMS v1 `provider_references[].location`; docs/converter.md,
 * What it reads, and Fetching over HTTP): each named URL holds a provider-reference file `{ "provider_groups": [...] }`
 * without a group id; the id is the referencing file's. Fetched with the converter's fetch policy
 * (bounded concurrency, time-out, retries), cached for the run in memory and optionally on disk,
 * keyed on the URL without its query string (signed URLs change their `Expires=`/`Signature=`).
 * Only an absolute http(s) URL is fetched: a `file:` location (or any other scheme) is refused
 * before the cache or any request, its group left unresolved, so that a file a publisher serves
 * cannot make the converter read the machine's own files.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ElementContext } from '../../mrf/normalize-context';
import { isObject } from '../../mrf/normalize-context';
import { flattenProviderGroups } from '../../mrf/normalize-provider';
import type { MrfProblem, MrfProvider } from '../../mrf/types';
import { describeFetchError, fetchBytes, mapLimit, refusalOf, RefusedLocationError, type FetchPolicy } from '../plan/fetch-policy';

/** A remote group as the referencing file declares it. */
export interface RemoteGroup {
  provider_group_id: string;
  location: string;
}

/** A fetched and parsed provider-reference file, or why it could not be (`refused`: its location, or a redirect's, is not http(s)). */
export type FetchedReference =
  | { ok: true; providers: MrfProvider[]; problems: MrfProblem[] }
  | { ok: false; reason: string; refused?: true };

/** The identity of a reference URL: without query string and fragment (quirk 3). */
export function cacheKey(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/**
 * Parses the bytes of a provider-reference file (plain or gzip JSON, BOM allowed). Its problems
 * carry JSON paths inside that file (`$.provider_groups[0].npi[1]`) and offset -1.
 */
export function parseProviderReferenceFile(bytes: Buffer): FetchedReference {
  let doc: unknown;
  try {
    const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
    doc = JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, reason: `not a JSON provider-reference file (${(e as Error).message})` };
  }
  if (!isObject(doc) || !Array.isArray(doc.provider_groups)) return { ok: false, reason: 'not a provider-reference file (no provider_groups array)' };
  const ctx: ElementContext = { offset: -1, problems: [] };
  const providers = flattenProviderGroups(ctx, doc.provider_groups, '$.provider_groups');
  if (providers.length === 0) return { ok: false, reason: 'the provider-reference file lists no provider' };
  return { ok: true, providers, problems: ctx.problems };
}

/** Fetches provider-reference files once per URL identity for a whole conversion. */
export class RemoteReferenceResolver {
  private readonly cache = new Map<string, Promise<FetchedReference>>();
  fetched = 0;
  failed = 0;

  /**
   * @param policy the HTTP client (fetch-policy.ts)
   * @param cacheDir a directory keeping fetched files across runs (created when missing); none by default
   */
  constructor(
    private readonly policy: FetchPolicy,
    private readonly cacheDir?: string,
  ) {}

  /**
   * The provider-reference file at `url`; never throws (a failure is a value: `HTTP 404 Not Found`,
   * `refused: the file: scheme is not fetched (http and https only)`).
   */
  get(url: string): Promise<FetchedReference> {
    const key = cacheKey(url);
    let p = this.cache.get(key);
    if (!p) {
      p = this.load(url, key);
      this.cache.set(key, p);
    }
    return p;
  }

  /** Resolves `groups` with at most `policy.concurrency` requests in flight; results in order. */
  resolveAll(groups: readonly RemoteGroup[]): Promise<FetchedReference[]> {
    return mapLimit(groups, this.policy.concurrency, (g) => this.get(g.location));
  }

  private async load(url: string, key: string): Promise<FetchedReference> {
    const refused = refusalOf(url);
    if (refused) {
      this.failed++;
      return { ok: false, reason: `refused: ${refused}`, refused: true };
    }
    const file = this.cacheDir ? path.join(this.cacheDir, createHash('sha256').update(key).digest('hex').slice(0, 32) + '.json') : undefined;
    if (file) {
      const cached = await readFile(file).catch(() => undefined);
      if (cached) {
        const r = parseProviderReferenceFile(cached);
        if (r.ok) return r;
      }
    }
    let bytes: Buffer;
    try {
      bytes = await fetchBytes(url, this.policy);
    } catch (e) {
      this.failed++;
      return { ok: false, reason: describeFetchError(e), ...(e instanceof RefusedLocationError ? { refused: true as const } : {}) };
    }
    const r = parseProviderReferenceFile(bytes);
    if (!r.ok) {
      this.failed++;
      return r;
    }
    this.fetched++;
    if (file) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file + '.part', bytes);
      await rename(file + '.part', file);
    }
    return r;
  }
}
