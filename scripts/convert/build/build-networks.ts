/**
 * The `network_name` filter of a catalog's `files[]` entry (docs/converter.md, Products): one
 * table of contents or file can hold several networks of an insurer (schema 2.0 names each
 * provider reference's networks in `network_name`), and a product is one of them. The parser keeps
 * every reference's names (`raw_groups.network_name`, a JSON array: spool-rows.ts networkNamesText); the build
 * keeps, in the sources of an entry with a pattern, only the provider groups with a network name
 * the pattern matches. The others are filtered out (`resolved_groups.kept` false, their rate rows
 * dropped as the states filter drops them), not unresolved: they are another product's.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { compilePattern, printable } from '../plan/catalog-pattern';

/** The sources of one catalog entry's files, and the entry's `network_name` pattern. */
export interface NetworkFilter {
  /** Case-insensitive RE2 pattern (catalog-pattern.ts), checked by loadCatalog. */
  pattern: string;
  /** Working source ids (`raw_groups.source_id`) of the file. */
  sourceIds: readonly number[];
  /** The file as the catalog or its table of contents names it, for the warning. */
  file: string;
}

/**
 * Marks the provider groups outside each filter's networks as not kept and drops their members
 * from `provider_groups`. Runs after `resolved_groups` and `provider_groups` are built and before
 * the providers (build-tables.ts). A file without any network name keeps every group, with one
 * warning per file in `warnings` (a schema 1.x file names none); a pattern that matches none of a
 * file's networks keeps none, with a warning naming them (the first ten).
 * @returns the provider groups filtered out.
 */
export async function applyNetworkFilters(con: DuckDBConnection, filters: readonly NetworkFilter[], warnings: string[]): Promise<number> {
  const excluded: Array<[number, string]> = [];
  for (const f of filters) {
    if (f.sourceIds.length === 0) continue;
    const test = compilePattern(f.pattern);
    const rows = (await con.runAndReadAll(
      `SELECT DISTINCT source_id, network_name FROM raw_groups WHERE source_id IN (${f.sourceIds.map((id) => String(Math.trunc(id))).join(', ')})`,
    )).getRows();
    for (const id of f.sourceIds) {
      const names = rows.filter((r) => Number(r[0]) === id && r[1] !== null).map((r) => String(r[1]));
      if (names.length === 0) {
        warnings.push(`${f.file}: no provider reference names its network (network_name, schema 2.0); ` +
          `the filter network_name ${printable(JSON.stringify(f.pattern))} keeps every provider group`);
        continue;
      }
      let matched = 0;
      const seen = new Set<string>();
      for (const text of names) {
        const list = JSON.parse(text) as string[];
        for (const n of list) seen.add(n);
        if (list.some(test)) matched++;
        else excluded.push([id, text]);
      }
      if (matched === 0) {
        // a misspelt pattern must not pass for a product without rates
        const shown = [...seen].sort().slice(0, 10).map((n) => printable(JSON.stringify(n)));
        warnings.push(`${f.file}: the filter network_name ${printable(JSON.stringify(f.pattern))} matches none of its networks ` +
          `(${shown.join(', ')}${seen.size > 10 ? `, and ${seen.size - 10} more` : ''}); none of its rates is kept`);
      }
      // a reference without names in a file that names networks is in none: filtered out
      if (rows.some((r) => Number(r[0]) === id && r[1] === null)) excluded.push([id, '']);
    }
  }
  if (excluded.length === 0) return 0;
  await con.run('CREATE TEMP TABLE excluded_networks (source_id INTEGER, network_name VARCHAR)');
  try {
    // few rows: one per distinct network list of a file
    for (const [id, text] of excluded) await con.run('INSERT INTO excluded_networks VALUES ($1, $2)', [id, text]);
    await con.run(`
      CREATE TEMP TABLE excluded_groups AS
      SELECT DISTINCT g.source_id, g.provider_group_id FROM raw_groups g
      JOIN excluded_networks x ON x.source_id = g.source_id AND x.network_name = coalesce(g.network_name, '');
      UPDATE resolved_groups r SET kept = false
        FROM excluded_groups x WHERE x.source_id = r.source_id AND x.provider_group_id = r.provider_group_id;
      DELETE FROM provider_groups p USING excluded_groups x WHERE x.source_id = p.source_id AND x.provider_group_id = p.provider_group_id;`);
    const n = await con.runAndReadAll('SELECT count(*) FROM excluded_groups');
    return Number(n.getRows()[0]![0]);
  } finally {
    await con.run('DROP TABLE IF EXISTS excluded_groups; DROP TABLE excluded_networks');
  }
}
