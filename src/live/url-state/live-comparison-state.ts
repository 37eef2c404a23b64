/**
 * Every filter and selection of the live comparison in the URL search params, so a view can be
 * bookmarked and shared. Pure: parse, write, and the /api parameters they mean.
 *
 * URL keys (defaults are left out; unknown keys are kept):
 * `page` (1-based) · `limit` (25, 50, 100, 200; default 50) · `category` (a category of the
 * dataset's services, src/live/url-state/categories.ts) · `competitors` (ids,
 * comma-separated; absent = the default preselection, empty = none) · `class` (`professional` or
 * `institutional` = only that one; `none` = neither; absent = both) · `overpaying=0` (the
 * checkbox, default on) · `sort` (`variance`, `savings`; default `overpayment`) · `services`
 * (billing codes) · `providers` (NPI or `TIN:<tin>`) · `mode=separate` (default unified) ·
 * `shared_providers=1` ("At shared providers", default off) · `billed=1` ("Where we bill it",
 * default off; both src/live/url-state/shared-providers.ts) · `min_confidence` (`medium` or `high`:
 * 'Minimum confidence', docs/methodology.md, Confidence and distribution; default every unit).
 */
import type { BillingClassFilter, LiveInsurer, ServicePricingParams, ServiceSort } from '../../../contract/api';
import { MIN_CONFIDENCES, SERVICE_SORTS, type MinConfidence } from '../../../contract/api';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from './comparison-query';
import { CATEGORY_KEY, parseCategory } from './categories';
import { parseProviderOptions, providerOptionsParam, writeProviderOptions } from './shared-providers';

export type SearchMode = 'unified' | 'separate';

export interface LiveComparisonState {
  /** 0-based page index; the URL and the screen show `page + 1`. */
  page: number;
  limit: PageSize;
  /** A category of the dataset's services (`services.category`); null = all categories. */
  category: string | null;
  /** Selected competitor ids; null = the default preselection (see `defaultCompetitors`). */
  competitors: string[] | null;
  professional: boolean;
  institutional: boolean;
  overpayingOnly: boolean;
  sort: ServiceSort;
  services: string[];
  providers: string[];
  mode: SearchMode;
  /** docs/methodology.md (Per comparison unit), at shared providers: every price only at providers both sides have rates with. */
  sharedProviders: boolean;
  /** docs/methodology.md (Per comparison unit), where we bill it: every price only at providers with a claim of the service. */
  billed: boolean;
  /** Hide the units under this confidence (docs/methodology.md, Confidence and distribution); null = every unit. */
  minConfidence: MinConfidence | null;
}

export const DEFAULT_STATE: LiveComparisonState = {
  page: 0, limit: DEFAULT_PAGE_SIZE, category: null, competitors: null, professional: true, institutional: true,
  overpayingOnly: true, sort: 'overpayment', services: [], providers: [], mode: 'unified',
  sharedProviders: false, billed: false, minConfidence: null,
};

/** The URL key of 'Minimum confidence', the same name as the /api parameter. */
export const MIN_CONFIDENCE_KEY = 'min_confidence';

const list = (v: string | null): string[] =>
  v === null ? [] : [...new Set(v.split(',').map((s) => s.trim()).filter((s) => s !== ''))];

/** Reads the state; anything invalid falls back to its default. */
export function parseLiveComparison(search: URLSearchParams): LiveComparisonState {
  const pageText = search.get('page') ?? '';
  const page = /^\d{1,9}$/.test(pageText) ? Number(pageText) - 1 : 0;
  const limit = Number(search.get('limit'));
  const cls = search.get('class');
  const sort = search.get('sort') ?? '';
  const min = search.get(MIN_CONFIDENCE_KEY) ?? '';
  return {
    page: Math.max(0, page),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? (limit as PageSize) : DEFAULT_PAGE_SIZE,
    category: parseCategory(search),
    competitors: search.has('competitors') ? list(search.get('competitors')) : null,
    professional: cls === null || cls === 'professional',
    institutional: cls === null || cls === 'institutional',
    overpayingOnly: search.get('overpaying') !== '0',
    sort: (SERVICE_SORTS as readonly string[]).includes(sort) ? (sort as ServiceSort) : 'overpayment',
    services: list(search.get('services')),
    providers: list(search.get('providers')),
    mode: search.get('mode') === 'separate' ? 'separate' : 'unified',
    ...parseProviderOptions(search),
    minConfidence: (MIN_CONFIDENCES as readonly string[]).includes(min) ? (min as MinConfidence) : null,
  };
}

function put(next: URLSearchParams, key: string, value: string | null): void {
  if (value === null) next.delete(key);
  else next.set(key, value);
}

/** Writes `s` into a copy of `current`, leaving defaults out and other keys untouched. */
export function writeLiveComparison(current: URLSearchParams, s: LiveComparisonState): URLSearchParams {
  const next = new URLSearchParams(current);
  put(next, 'page', s.page > 0 ? String(s.page + 1) : null);
  put(next, 'limit', s.limit !== DEFAULT_PAGE_SIZE ? String(s.limit) : null);
  put(next, CATEGORY_KEY, s.category);
  put(next, 'competitors', s.competitors === null ? null : s.competitors.join(','));
  const cls = s.professional && s.institutional ? null : s.professional ? 'professional' : s.institutional ? 'institutional' : 'none';
  put(next, 'class', cls);
  put(next, 'overpaying', s.overpayingOnly ? null : '0');
  put(next, 'sort', s.sort === 'overpayment' ? null : s.sort);
  put(next, 'services', s.services.length ? s.services.join(',') : null);
  put(next, 'providers', s.providers.length ? s.providers.join(',') : null);
  put(next, 'mode', s.mode === 'separate' ? 'separate' : null);
  put(next, MIN_CONFIDENCE_KEY, s.minConfidence);
  return writeProviderOptions(next, s);
}

/**
 * A change of filter starts again at page 1 (the old page may not exist in the new set); only a
 * change of `page` itself keeps it (a new page size resets to page 1 too).
 */
export function withChange(s: LiveComparisonState, change: Partial<LiveComparisonState>): LiveComparisonState {
  return { ...s, ...change, page: change.page ?? 0 };
}

/**
 * The competitors preselected on first load, docs/screens.md (Live comparison): every insurer but the reference
 * (found by the manifest's id, `isReference`); when no insurer is the reference, only the first.
 */
export function defaultCompetitors(insurers: readonly LiveInsurer[]): string[] {
  const hasReference = insurers.some((i) => i.isReference);
  if (!hasReference) return insurers.slice(0, 1).map((i) => i.id);
  return insurers.filter((i) => !i.isReference).map((i) => i.id);
}

/** The billing class the API takes; null when neither class is selected (no row passes). */
export function billingClassOf(s: Pick<LiveComparisonState, 'professional' | 'institutional'>): BillingClassFilter | null {
  if (s.professional && s.institutional) return 'all';
  if (s.professional) return 'professional';
  if (s.institutional) return 'institutional';
  return null;
}

/**
 * `GET /api/service-pricing` parameters: every filter goes to the API, so paging, 'n / total' and
 * the cards cover the whole filtered set; offset = page x limit. Competitors the
 * insurer list does not know are dropped; none selected = the API's default (every competitor).
 * Null when no billing class is selected.
 */
export function pricingParams(s: LiveComparisonState, competitors: readonly string[]): ServicePricingParams | null {
  const cls = billingClassOf(s);
  if (cls === null) return null;
  const p: ServicePricingParams = { limit: s.limit, offset: s.page * s.limit, sort: s.sort, only_overpaying: s.overpayingOnly };
  if (cls !== 'all') p.billing_class = cls;
  if (s.category) p.category = s.category;
  if (competitors.length > 0) p.competitors = [...competitors];
  if (s.services.length > 0) p.services = s.services;
  if (s.providers.length > 0) p.providers = s.providers;
  if (s.minConfidence !== null) p.min_confidence = s.minConfidence;
  return { ...p, ...providerOptionsParam(s) };
}

/** The filters in a file name: `live-comparison_category-lab_class-professional_page-2.csv`. */
export function exportFileName(prefix: string, parts: ReadonlyArray<readonly [string, string | number | null | undefined]>): string {
  const clean = (v: string) => v.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  const kept = parts.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => `${clean(k)}-${clean(String(v))}`);
  return `${[clean(prefix), ...kept].join('_')}.csv`;
}
