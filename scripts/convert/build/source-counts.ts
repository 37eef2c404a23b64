/**
 * The build's figures per source of the manifest (contract/files/dataset.ts ManifestSource), from the
 * working database once build-tables.ts has made `named_refs`: rate rows, unresolved rate rows,
 * declared provider groups, and the dangling provider references reported per (file, id).
 */
import type { ManifestSource } from '../../../contract/files/dataset';
import type { ProblemLog } from '../common/problems';
import type { Spool } from '../spool/spool';

/** Rate rows, unresolved rate rows and declared provider groups of every source (named_refs, build-tables.ts). */
export async function fillSourceCounts(spool: Spool, sources: ManifestSource[]): Promise<void> {
  const r = await spool.con.runAndReadAll(`
    WITH counted AS (
      SELECT source_id, sum(n) FILTER (WHERE kept) AS n, sum(n) FILTER (WHERE kept AND NOT resolved) AS unresolved
      FROM named_refs GROUP BY 1),
    groups AS (SELECT source_id, count(DISTINCT provider_group_id) AS n FROM raw_groups GROUP BY 1)
    SELECT s.source_id, coalesce(c.n, 0), coalesce(c.unresolved, 0), coalesce(g.n, 0)
    FROM sources s LEFT JOIN counted c USING (source_id) LEFT JOIN groups g USING (source_id)`);
  for (const [id, rows, unresolved, groups] of r.getRows()) {
    const src = sources[Number(id)]!;
    src.rate_rows = Number(rows);
    src.unresolved_rate_rows = Number(unresolved);
    src.provider_groups = Number(groups);
  }
}

/**
 * Rates that name a provider_group_id their file never declares (a dangling reference): kept with
 * an empty provider (docs/methodology.md, Rows that count) and reported once per (file, id).
 */
export async function reportDanglingReferences(spool: Spool, sources: ManifestSource[], problems: ProblemLog): Promise<void> {
  const r = await spool.con.runAndReadAll(`
    SELECT source_id, provider_group_id, CAST(n AS INTEGER) FROM named_refs
    WHERE provider_group_id IS NOT NULL AND NOT declared ORDER BY 1, 2`);
  for (const [id, groupId, n] of r.getRows()) {
    const src = sources[Number(id)]!;
    problems.add({
      file: src.url,
      code: 'dangling_provider_reference',
      message: `${Number(n)} rate rows name provider group ${String(groupId)}, which the file does not declare; they are unresolved`,
      path: '$.in_network[*].negotiated_rates[*].provider_references',
      offset: -1,
    });
    src.problems++;
  }
}

