/**
 * Parsers of query-string values shared by the endpoint files. Every value arrives as a string;
 * an empty string counts as absent. A bad value throws `invalidParam` (400, `invalid <name>: <value>`).
 */
import { BILLED_UNAVAILABLE, type DatasetManifest } from '../../contract/files/dataset';
import { ApiError, invalidParam } from './errors';

/** The value of `name`, or undefined when absent or empty. */
export function optional(query: Readonly<Record<string, string>>, name: string): string | undefined {
  const v = query[name];
  return v === undefined || v === '' ? undefined : v;
}

/** A decimal integer in [min, max]; digits only (no sign, no exponent). @throws ApiError 400 */
export function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^\d{1,15}$/.test(value)) throw invalidParam(name, value);
  const n = Number(value);
  if (n < min || n > max) throw invalidParam(name, value);
  return n;
}

/** One of a closed list, matched exactly. @throws ApiError 400 */
export function parseOneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalidParam(name, value);
  return value as T;
}

/** `true`/`1` or `false`/`0`. @throws ApiError 400 */
export function parseBoolean(name: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidParam(name, value);
}

/** A comma-separated list: trimmed, empty entries dropped, duplicates once, first-seen order. */
export function parseList(value: string): string[] {
  return [...new Set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
}

/** A required value. @throws ApiError 400 `invalid <name>: ` when absent or empty. */
export function required(query: Readonly<Record<string, string>>, name: string): string {
  const v = optional(query, name);
  if (v === undefined) throw invalidParam(name, query[name] ?? '');
  return v;
}

/** A provider id: an NPI (digits) or `TIN:<digits>` (docs/methodology.md, Rows that count). */
export const PROVIDER_ID = /^(\d{1,15}|TIN:\d{1,15})$/;

/** A two-letter state code, upper-cased. @throws ApiError 400 */
export function parseStateCode(name: string, value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) throw invalidParam(name, value);
  return value.toUpperCase();
}

/** The optional `snapshot` parameter: one of the dataset's months. @throws ApiError 400 */
export function parseSnapshot(query: Readonly<Record<string, string>>, snapshots: readonly string[]): { snapshot?: string } {
  const snapshot = optional(query, 'snapshot');
  if (snapshot === undefined) return {};
  if (!snapshots.includes(snapshot)) throw invalidParam('snapshot', snapshot);
  return { snapshot };
}

/**
 * The optional comma-separated `competitors` ids: insurers of the manifest other than the
 * reference; undefined when none. @throws ApiError 400 naming an unknown id or the reference
 */
export function parseCompetitors(query: Readonly<Record<string, string>>, manifest: Pick<DatasetManifest, 'insurers' | 'reference_insurer'>): string[] | undefined {
  const value = optional(query, 'competitors');
  if (value === undefined) return undefined;
  const ids = parseList(value);
  for (const id of ids) if (!manifest.insurers.some((i) => i.id === id) || id === manifest.reference_insurer) throw invalidParam('competitors', id);
  return ids.length > 0 ? ids : undefined;
}

/** The optional comma-separated `providers` ids (PROVIDER_ID each); undefined when none. @throws ApiError 400 */
export function parseProviderIds(query: Readonly<Record<string, string>>): string[] | undefined {
  const value = optional(query, 'providers');
  if (value === undefined) return undefined;
  const ids = parseList(value);
  for (const id of ids) if (!PROVIDER_ID.test(id)) throw invalidParam('providers', id);
  return ids.length > 0 ? ids : undefined;
}

/** The screens' provider options of a request (docs/methodology.md, Per comparison unit). */
export interface ProviderOptions {
  shared_providers?: true;
  billed?: true;
}

/**
 * The optional `shared_providers` (At shared providers) and `billed` (Where we bill it) flags
 * (docs/methodology.md, Per comparison unit): `1`/`true` on, `0`/`false` off (parseBoolean); a
 * key only when on.
 * @throws ApiError 400 on a bad value, or `billed=1` on a dataset whose claims name no providers
 *   (`manifest.claims_by_provider`): the option has nothing to filter by.
 */
export function parseProviderOptions(query: Readonly<Record<string, string>>, manifest: Pick<DatasetManifest, 'claims_by_provider'>): ProviderOptions {
  const p: ProviderOptions = {};
  const shared = optional(query, 'shared_providers');
  if (shared !== undefined && parseBoolean('shared_providers', shared)) p.shared_providers = true;
  const billed = optional(query, 'billed');
  if (billed !== undefined && parseBoolean('billed', billed)) {
    if (manifest.claims_by_provider !== true) throw new ApiError(400, 'bad_request', `billed: ${BILLED_UNAVAILABLE}`);
    p.billed = true;
  }
  return p;
}

/**
 * The type-ahead parameters of a search endpoint: `q` trimmed and lower-cased (absent when absent
 * or blank: every row matches), `limit` an integer 1..`maxLimit` (absent: the endpoint's default).
 * @throws ApiError 400 `invalid limit: <value>`.
 */
export function parseSearch(query: Readonly<Record<string, string>>, maxLimit: number): { q?: string; limit?: number } {
  const p: { q?: string; limit?: number } = {};
  const q = optional(query, 'q')?.trim().toLowerCase();
  if (q) p.q = q;
  const limit = optional(query, 'limit');
  if (limit !== undefined) p.limit = parseInteger('limit', limit, 1, maxLimit);
  return p;
}
