/**
 * The catalog's plan and file-name filters (contract/files/catalog.ts `CatalogPlanFilter`,
 * `CatalogFilters.file_name`; docs/converter.md, Plans), as predicates over the CMS
 * table-of-contents schema's `reporting_plans[]` entries and over in-network file locations,
 * and the identity of a listed file without its URL signature.
 */
import type { CatalogFilters, CatalogPlanFilter } from '../../../contract/files/catalog';
import type { ManifestReportingPlan } from '../../../contract/files/dataset';
import { compilePattern } from './catalog-pattern';

/** Digits of an EIN (`12-3456789` -> `123456789`). */
const einDigits = (ein: string): string => ein.replace(/\D/g, '');

/**
 * The predicate of `filter`, or null when it sets no criterion (every plan matches). A plan
 * matches when it meets every criterion given: `plan_name` searched case-insensitively (RE2,
 * catalog-pattern.ts: linear time on a publisher's plan names), `plan_id` among the values,
 * `plan_market_type` equal, and for `ein` a `plan_id_type` of EIN (any case) with those digits.
 * @throws PatternError when RE2 refuses `plan_name` (loadCatalog refuses such a catalog first).
 */
export function planMatcher(filter: CatalogPlanFilter | undefined): ((plan: ManifestReportingPlan) => boolean) | null {
  if (!filter) return null;
  const tests: Array<(p: ManifestReportingPlan) => boolean> = [];
  if (filter.plan_name !== undefined) {
    const found = compilePattern(filter.plan_name);
    tests.push((p) => found(p.plan_name));
  }
  if (filter.plan_id?.length) {
    const ids = new Set(filter.plan_id.map((x) => x.trim()));
    tests.push((p) => ids.has(p.plan_id));
  }
  if (filter.plan_market_type !== undefined) {
    const type = filter.plan_market_type;
    tests.push((p) => p.plan_market_type === type);
  }
  if (filter.ein?.length) {
    const eins = new Set(filter.ein.map(einDigits));
    tests.push((p) => p.plan_id_type === 'ein' && eins.has(einDigits(p.plan_id)));
  }
  return tests.length === 0 ? null : (p) => tests.every((t) => t(p));
}

/**
 * The name of an in-network file: the last path segment of its location, without the query or
 * fragment, percent-decoded when it can be (`https://x/a/b_PPO_1.json.gz?Signature=..` -> `b_PPO_1.json.gz`).
 */
export function fileNameOf(location: string): string {
  const bare = location.replace(/[?#].*$/s, '');
  const name = bare.slice(Math.max(bare.lastIndexOf('/'), bare.lastIndexOf('\\')) + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The predicate of `filters.file_name` over locations (searched case-insensitively in fileNameOf,
 * RE2: catalog-pattern.ts), or null when absent (every file).
 * @throws PatternError when RE2 refuses the pattern (loadCatalog refuses such a catalog first).
 */
export function fileNameMatcher(filters: CatalogFilters | undefined): ((location: string) => boolean) | null {
  if (filters?.file_name === undefined) return null;
  const found = compilePattern(filters.file_name);
  return (location) => found(fileNameOf(location));
}

/**
 * Query parameters that sign or expire a URL rather than name the file: CloudFront
 * (`Expires`, `Signature`, `Key-Pair-Id`, `Policy`), S3 SigV2/SigV4 (`AWSAccessKeyId`,
 * `X-Amz-*`), Google Cloud Storage (`X-Goog-*`, `GoogleAccessId`), Azure SAS (`sv`, `ss`, `srt`,
 * `sp`, `se`, `st`, `spr`, `sig`, `sr`, `skoid` ... ), compared case-insensitively.
 */
const SIGNATURE_PARAMS = new Set(['expires', 'signature', 'key-pair-id', 'policy', 'awsaccesskeyid', 'googleaccessid', 'sv', 'ss', 'srt', 'sp',
  'se', 'st', 'spr', 'sig', 'sr', 'si', 'skoid', 'sktid', 'skt', 'ske', 'sks', 'skv', 'x-amz-security-token']);

/**
 * A file's identity across listings and months: its http(s) URL without the signature query
 * parameters (SIGNATURE_PARAMS, `X-Amz-*`, `X-Goog-*`) and without the fragment, the other
 * parameters kept in their order; a local path as is. Two signed links to one file are one file.
 */
export function unsignedLocation(location: string): string {
  if (!/^https?:\/\//i.test(location)) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location;
  }
  const kept = [...url.searchParams].filter(([k]) => {
    const key = k.toLowerCase();
    return !SIGNATURE_PARAMS.has(key) && !key.startsWith('x-amz-') && !key.startsWith('x-goog-') && key !== '';
  });
  url.hash = '';
  url.search = kept.length ? new URLSearchParams(kept).toString() : '';
  return url.href;
}
