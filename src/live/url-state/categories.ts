/**
 * The live comparison's category filter: the categories offered are exactly those of the
 * dataset's services (`services.category`, as `GET /api/service-categories` lists them, of the
 * same CPT/HCPCS services the comparison rows come from), so every one offered is one a row can
 * carry; a services file given to the converter may name its own ('Laboratory', 'Vaccines'), and
 * without one they are the derived ones, docs/methodology.md (Names and categories). In the URL as
 * `category=<name>`, passed to `GET /api/service-pricing` as is. Pure.
 */

/** The URL key, the same name as the /api parameter it sets. */
export const CATEGORY_KEY = 'category';

/** Longest category name read from a URL; a longer value is no category. */
const MAX_CATEGORY_LENGTH = 100;

/** The distinct categories among `categories`, sorted by name (case-insensitive, then as is); empty ones left out. */
export function datasetCategories(categories: ReadonlyArray<string | null>): string[] {
  const names = new Set<string>();
  for (const c of categories) if (c) names.add(c);
  return [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The URL's category, trimmed; null when absent, empty or too long. Any other name is kept, since
 * which categories exist is the dataset's to say: one it lacks selects no row.
 */
export function parseCategory(search: URLSearchParams): string | null {
  const v = (search.get(CATEGORY_KEY) ?? '').trim();
  return v !== '' && v.length <= MAX_CATEGORY_LENGTH ? v : null;
}
