/**
 * How the provider-group ids a negotiated rate names travel through the spool: one `raw_prices`
 * text field (spool.ts `provider_group_ids`) holding the ids joined by GROUP_ID_SEPARATOR, the ASCII
 * unit separator, which CSV does not quote. A JSON string may hold any character, the separator
 * included (escaped as `\u001f`), so an id is escaped before it is joined and unescaped after the
 * split, and an id is never cut in two: GROUP_ID_ESCAPE (the ASCII record separator) followed by
 * `0` stands for itself, followed by `1` for the separator. An id holding neither character, which
 * is every id of the files seen so far, is written as it is: the parser threads' fast path
 * (fast-rates.ts) copies only printable ASCII ids, and the SQL unescapes only a field holding
 * GROUP_ID_ESCAPE (GROUP_ID_LIST_SQL), so the common case costs nothing more.
 */

/** Joins the ids of one price in `raw_prices`. */
export const GROUP_ID_SEPARATOR = '\x1f';

/** Starts the escape of GROUP_ID_ESCAPE (`\x1e0`) or GROUP_ID_SEPARATOR (`\x1e1`) inside an id. */
export const GROUP_ID_ESCAPE = '\x1e';

/**
 * `id` with GROUP_ID_ESCAPE and GROUP_ID_SEPARATOR escaped (the module's comment): what a join may
 * hold. The escape first: the second replace adds escapes that must stay.
 */
export function escapeGroupId(id: string): string {
  return id.replaceAll(GROUP_ID_ESCAPE, '\x1e0').replaceAll(GROUP_ID_SEPARATOR, '\x1e1');
}

/**
 * The `provider_group_ids` field of `ids` (plain strings, in the rate's order): each escaped
 * (escapeGroupId), joined by GROUP_ID_SEPARATOR; splitGroupIds gives them back.
 */
export function joinGroupIds(ids: readonly string[]): string {
  // the join holds ids.length - 1 separators of its own: one more, or an escape, comes from an id
  // (checked on the joined text: cheaper than a test of every id on the parser threads)
  const joined = ids.join(GROUP_ID_SEPARATOR);
  let at = -1;
  for (let k = 1; k < ids.length; k++) at = joined.indexOf(GROUP_ID_SEPARATOR, at + 1);
  if (joined.indexOf(GROUP_ID_SEPARATOR, at + 1) < 0 && !joined.includes(GROUP_ID_ESCAPE)) return joined;
  return ids.map(escapeGroupId).join(GROUP_ID_SEPARATOR);
}

/** The ids of a `provider_group_ids` field written by joinGroupIds (the JavaScript twin of GROUP_ID_LIST_SQL). */
export function splitGroupIds(field: string): string[] {
  return field.split(GROUP_ID_SEPARATOR).map((s) => s.replaceAll('\x1e1', GROUP_ID_SEPARATOR).replaceAll('\x1e0', GROUP_ID_ESCAPE));
}

/**
 * SQL of the ids of a `raw_prices` row split on GROUP_ID_SEPARATOR, still escaped: as many as
 * the row names, for a count.
 */
const SPLIT_SQL = `string_split(provider_group_ids, chr(31))`;

/**
 * SQL of the list of provider group ids of a `raw_prices` row (or of a relation with its
 * `provider_group_ids`): split on GROUP_ID_SEPARATOR and, when the field holds GROUP_ID_ESCAPE,
 * unescaped (`\x1e1` first, then `\x1e0`: after the first replace every `\x1e` left starts a
 * `\x1e0`); the ids as the file lists them, NULL for a price naming none. A `rates` part's
 * `provider_group_ids` (write-parquet.ts).
 */
export const GROUP_ID_LIST_SQL = `CASE WHEN contains(provider_group_ids, chr(30))
  THEN list_transform(${SPLIT_SQL}, x -> replace(replace(x, chr(30) || '1', chr(31)), chr(30) || '0', chr(30)))
  ELSE ${SPLIT_SQL} END`;

/**
 * SQL of the expansion of a `raw_prices` row (or of a relation with its `provider_group_ids`) to
 * one row per provider group id its rate names (GROUP_ID_LIST_SQL), the id NULL for a price naming
 * none: `raw_rates`, the named ids and the medians.
 */
export const GROUP_ID_UNNEST_SQL = `unnest(coalesce(${GROUP_ID_LIST_SQL}, [NULL::VARCHAR]))`;

/**
 * The rate rows a `raw_prices` row stands for (the rows GROUP_ID_UNNEST_SQL makes of it: one per
 * group id its rate names, one when it names none), counted without unnesting or unescaping:
 * code-buckets.ts's rows per item, at about half the cost of the unnest (docs/benchmarks.md).
 */
export const RATE_ROWS_PER_PRICE_SQL = `coalesce(len(${SPLIT_SQL}), 1)`;
