/**
 * The `sql` tag: SQL text with `?` placeholders plus its values, for prepared statements.
 *
 * Values reach DuckDB only as parameters; identifiers only through `identifier()` from a closed
 * list (docs/architecture.md). A request value can never become SQL text: the only way to add
 * text is a template literal in our own source or another `SqlFragment`.
 */

/** A value bound as a prepared-statement parameter. */
export type SqlValue = string | number | boolean | null;

/** What may be interpolated into `sql`: a value, a list of values (`IN (...)`), or a fragment. */
export type SqlPart = SqlValue | readonly SqlValue[] | SqlFragment;

/** A piece of SQL text with `?` placeholders and its parameters, in order. */
export class SqlFragment {
  constructor(
    readonly text: string,
    readonly params: readonly SqlValue[],
  ) {}
}

/**
 * Builds a fragment: each `${value}` becomes `?` (bound in order), each `${[a, b]}` becomes
 * `?, ?` (an empty list becomes `NULL`, so `x IN (${[]})` matches nothing), each nested fragment
 * is inlined with its parameters.
 */
export function sql(strings: TemplateStringsArray, ...parts: SqlPart[]): SqlFragment {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  parts.forEach((part, i) => {
    if (part instanceof SqlFragment) {
      text += part.text;
      params.push(...part.params);
    } else if (Array.isArray(part)) {
      const list = part as readonly SqlValue[];
      text += list.length === 0 ? 'NULL' : list.map(() => '?').join(', ');
      params.push(...list);
    } else {
      text += '?';
      params.push(part as SqlValue);
    }
    text += strings[i + 1] ?? '';
  });
  return new SqlFragment(text, params);
}

/**
 * A double-quoted identifier taken from a closed list (table or column names of
 * contract/files/dataset.ts, sort keys of contract/api/index.ts).
 * @throws Error when `name` is not in `allowed` (a programming error, never a request's fault).
 */
export function identifier<T extends string>(name: T, allowed: readonly T[]): SqlFragment {
  if (!allowed.includes(name)) throw new Error(`identifier not allowed: ${name}`);
  return new SqlFragment(`"${name}"`, []);
}

/** Joins fragments with a separator written in our source (e.g. `' AND '`). */
export function joinSql(fragments: readonly SqlFragment[], separator: ', ' | ' AND ' | ' OR '): SqlFragment {
  return new SqlFragment(
    fragments.map((f) => f.text).join(separator),
    fragments.flatMap((f) => f.params),
  );
}
