/**
 * The one SQL shape of the type-ahead endpoints (`GET /api/services-search`, `GET /api/providers`,
 * `GET /api/providers-for-service`), after the product spec's search matching (section 5): a
 * case-insensitive substring match of `q`, prefix matches first, then alphabetical.
 *
 * Rule, for a source relation with an id, a name and further searched columns:
 * - a row matches when `q` (already trimmed and lower-cased by params.ts `parseSearch`) is a
 *   substring of lower(name), lower(id) or lower(any searched column), a null name or column read
 *   as ''; an absent or empty `q` matches every row (`contains(x, '')` is true);
 * - order: prefix matches first (lower(name) or lower(id) starts with `q`), then lower(name)
 *   (name shown as `coalesce(name, id)`), then the endpoint's tie-break among names equal but for
 *   case ('id', or 'name-then-id': the name as is, then the id);
 * - `total` counts every match (`count(*) OVER ()`, before `LIMIT`); the rows are the first `limit`.
 *
 * Shapes:
 * - in: `TypeAheadSpec<Item>`, e.g. for services
 *   `{ from: sql\`services\`, where: sql\`billing_code_type IN (...)\`, id: sql\`billing_code\`,
 *   name: sql\`name\`, columns: { billing_code_type: sql\`billing_code_type\`, category: sql\`category\` },
 *   searched: [sql\`category\`, sql\`description\`, sql\`keywords\`], ties: 'name-then-id', q, limit }`;
 * - out: `{ query, page }`: `query` selects `id, name, <columns...>, total`; `page(db.all(query))`
 *   is `{ items: Item[] (id, name and the columns, in that order), total }` (`total` 0 without rows).
 *
 * Every value (`q`, `limit`, parameters inside the fragments) is a prepared-statement parameter
 * (workers/db/sql.ts); the only text added here is this file's own and the output column names,
 * which are the keys of `columns` in our source and checked against a plain identifier pattern.
 */
import type { PlainValue } from '../db/database';
import { joinSql, sql, SqlFragment } from '../db/sql';

/** What every type-ahead item has: its id and its shown name. */
export interface TypeAheadItem {
  id: string;
  name: string;
}

/** How names equal but for case are ordered: by id, or by the name as is and then by id. */
export type TypeAheadTies = 'id' | 'name-then-id';

export interface TypeAheadSpec<Item extends TypeAheadItem> {
  /** Common table expressions the source needs, without `WITH` (e.g. sql`found AS (SELECT ...)`). */
  with?: SqlFragment;
  /** The source relation, as written after FROM: sql`services`, sql`found f LEFT JOIN providers p ON ...`. */
  from: SqlFragment;
  /** A filter of the source besides the match (e.g. CPT/HCPCS services only). */
  where?: SqlFragment;
  /** The id expression (never null): matched, a prefix, the last tie-break. */
  id: SqlFragment;
  /** The name expression (may be null): matched, a prefix, shown as coalesce(name, id). */
  name: SqlFragment;
  /** The item's other output columns: output name -> expression. */
  columns: { [K in Exclude<keyof Item, keyof TypeAheadItem>]: SqlFragment };
  /** Further expressions matched as substrings (not as prefixes), e.g. category, description. */
  searched?: readonly SqlFragment[];
  ties: TypeAheadTies;
  /** The search text from parseSearch (trimmed, lower-cased); absent or '' = every row. */
  q: string | undefined;
  /** The page size (the endpoint's default when the request has none). */
  limit: number;
}

export interface TypeAheadQuery<Item extends TypeAheadItem> {
  query: SqlFragment;
  /** The rows of `query` as the answer: the items (id, name, columns) and the total of matches. */
  page(rows: ReadonlyArray<Record<string, PlainValue>>): { items: Item[]; total: number };
}

const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;
const RESERVED = ['id', 'name', 'total', 'prefix'];

/**
 * Builds the type-ahead query of `spec` and the mapping of its rows (rule and shapes above).
 * @throws Error when a column name is not a plain lower-case identifier or is one of id, name,
 *   total, prefix (a programming error, never a request's fault).
 */
export function typeAheadSql<Item extends TypeAheadItem>(spec: TypeAheadSpec<Item>): TypeAheadQuery<Item> {
  const names = Object.keys(spec.columns);
  for (const n of names) {
    if (!COLUMN_NAME.test(n) || RESERVED.includes(n)) throw new Error(`type-ahead column not allowed: ${n}`);
  }
  const exprs = spec.columns as Record<string, SqlFragment>;
  const q = spec.q ?? '';
  const { id, name } = spec;
  // A null name or searched column matches nothing but the empty q; the id is never null.
  const lowName = sql`lower(coalesce(${name}, ''))`;
  const lowId = sql`lower(${id})`;
  const searched = (spec.searched ?? []).map((e) => sql`lower(coalesce(${e}, ''))`);
  const matched = [lowName, lowId, ...searched].map((e) => sql`contains(${e}, ${q})`);
  const prefix = [lowName, lowId].map((e) => sql`starts_with(${e}, ${q})`);
  const extra = names.map((n) => sql`, ${exprs[n]!} AS ${new SqlFragment(`"${n}"`, [])}`);
  const outer = names.map((n) => new SqlFragment(`, "${n}"`, []));
  const ctes = spec.with ? sql`${spec.with}, ` : sql``;
  const filter = spec.where ? sql`(${spec.where}) AND ` : sql``;
  const ties = spec.ties === 'id' ? sql`id` : sql`name, id`;
  const query = sql`
    WITH ${ctes}matched AS (
      SELECT ${id} AS id, coalesce(${name}, ${id}) AS name${joinFragments(extra)},
        (${joinSql(prefix, ' OR ')}) AS prefix
      FROM ${spec.from}
      WHERE ${filter}(${joinSql(matched, ' OR ')})
    )
    SELECT id, name${joinFragments(outer)}, (count(*) OVER ())::INTEGER AS total FROM matched
    ORDER BY prefix DESC, lower(name), ${ties}
    LIMIT ${spec.limit}`;
  const fields = ['id', 'name', ...names];
  return {
    query,
    page: (rows) => ({
      // The caller's promise, as with db.all: the columns hold the Item's field types.
      items: rows.map((r) => Object.fromEntries(fields.map((f) => [f, r[f] ?? null])) as unknown as Item),
      total: Number(rows[0]?.total ?? 0),
    }),
  };
}

/** Concatenates fragments with nothing between them (each starts with its own separator). */
function joinFragments(parts: readonly SqlFragment[]): SqlFragment {
  return new SqlFragment(parts.map((p) => p.text).join(''), parts.flatMap((p) => p.params));
}
