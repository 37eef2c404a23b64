/**
 * The live comparison's shareable state in the URL search params (docs/architecture.md:
 * "shareable filters live in the URL"), so a screen is bookmarkable. Pure.
 *
 * URL keys: `page` (1-based, as displayed), `limit` (rows per page), `category`. Defaults are left
 * out of the URL; unknown keys are kept (later filters add their own keys).
 */
import type { ServicePricingParams } from '../../../contract/api';
import { CATEGORIES, type Category } from '../../../contract/rules/metrics';

/** Rows-per-page choices: docs/screens.md (Constants). */
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

export interface ComparisonQuery {
  /** 0-based page index; the URL and the screen show `page + 1`. */
  page: number;
  limit: PageSize;
  /** A category of contract/rules/metrics.ts, or null for 'All Categories'. */
  category: Category | null;
}

export const DEFAULT_QUERY: ComparisonQuery = { page: 0, limit: DEFAULT_PAGE_SIZE, category: null };

function isPageSize(n: number): n is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(n);
}

function isCategory(s: string): s is Category {
  return (CATEGORIES as readonly string[]).includes(s);
}

/**
 * Reads the state from search params. Anything invalid falls back to its default: `page` must be
 * a whole number >= 1, `limit` one of PAGE_SIZES, `category` one of CATEGORIES.
 */
export function parseComparisonQuery(search: URLSearchParams): ComparisonQuery {
  const pageText = search.get('page') ?? '';
  const page = /^\d+$/.test(pageText) ? Number(pageText) : 1;
  const limit = Number(search.get('limit'));
  const category = search.get('category') ?? '';
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page - 1 : 0,
    limit: isPageSize(limit) ? limit : DEFAULT_PAGE_SIZE,
    category: isCategory(category) ? category : null,
  };
}

/** Writes `query` into a copy of `current`, leaving defaults out and other keys untouched. */
export function writeComparisonQuery(current: URLSearchParams, query: ComparisonQuery): URLSearchParams {
  const next = new URLSearchParams(current);
  if (query.page > 0) next.set('page', String(query.page + 1));
  else next.delete('page');
  if (query.limit !== DEFAULT_PAGE_SIZE) next.set('limit', String(query.limit));
  else next.delete('limit');
  if (query.category) next.set('category', query.category);
  else next.delete('category');
  return next;
}

/** A new page size starts again at page 1. */
export function withPageSize(query: ComparisonQuery, limit: PageSize): ComparisonQuery {
  return { ...query, limit, page: 0 };
}

/** A new category starts again at page 1: the old page may not exist in the narrower set. */
export function withCategory(query: ComparisonQuery, category: Category | null): ComparisonQuery {
  return { ...query, category, page: 0 };
}

/** Moves to a page index, never below 0. */
export function withPage(query: ComparisonQuery, page: number): ComparisonQuery {
  return { ...query, page: Math.max(0, Math.floor(page)) };
}

/** The `GET /api/service-pricing` parameters: offset = page x limit. */
export function servicePricingParams(query: ComparisonQuery): ServicePricingParams {
  const params: ServicePricingParams = { limit: query.limit, offset: query.page * query.limit };
  if (query.category) params.category = query.category;
  return params;
}

/** Next is enabled only when the returned count equals the page size. */
export function hasNextPage(returned: number, limit: number): boolean {
  return returned === limit;
}
