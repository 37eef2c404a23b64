/**
 * Resolves the remote provider groups of one converted source in the working database: the
 * parser threads stored each `location` group as one `raw_groups` row without provider
 * (spool.ts); here the groups that some rate of the source names are fetched
 * (remote-references.ts), their providers appended to `raw_groups` under the referencing file's
 * `provider_group_id`, and the placeholder rows of resolved groups deleted. Groups no rate names
 * are not fetched (CareFirst declares 370 and uses 74, docs/converter.md, Quirks of real files).
 */
import { unlink } from 'node:fs/promises';
import type { MrfProblem } from '../../mrf/types';
import { GROUP_ID_UNNEST_SQL, type Spool } from '../spool/spool';
import { SpoolRows } from '../spool/spool-rows';
import type { RemoteGroup, RemoteReferenceResolver } from './remote-references';

/** A remote group that could not be resolved, with the reason (HTTP status or error). */
export interface RemoteFailure extends RemoteGroup {
  reason: string;
  /** The location (or a redirect's) is not http(s): never fetched (remote-references.ts). */
  refused?: true;
}

/** What resolving one source gave. */
export interface RemoteOutcome {
  /** Remote groups named by at least one rate. */
  used: number;
  /** Remote groups declared but named by no rate (not fetched). */
  unused: number;
  resolved: number;
  failures: RemoteFailure[];
  /** Problems found inside fetched files, each with the group it concerns. */
  problems: Array<{ group: RemoteGroup; problem: MrfProblem }>;
}

/**
 * Fetches and spools the remote groups of source `sourceId`.
 * @param prefix path prefix of the temporary CSV file (in the work directory)
 * @throws when DuckDB fails (fetch failures are returned, never thrown).
 */
export async function spoolRemoteGroups(spool: Spool, sourceId: number, resolver: RemoteReferenceResolver, prefix: string): Promise<RemoteOutcome> {
  // the remote groups first (raw_groups is small): a file without any skips the scan of its rates
  const r = await spool.con.runAndReadAll(
    `SELECT provider_group_id, any_value(remote_location) AS location FROM raw_groups
     WHERE source_id = $1 AND remote_location IS NOT NULL AND provider_id IS NULL GROUP BY 1 ORDER BY 1`,
    [sourceId],
  );
  if (r.currentRowCount === 0) return { used: 0, unused: 0, resolved: 0, failures: [], problems: [] };
  const named = await spool.con.runAndReadAll(
    `SELECT DISTINCT provider_group_id FROM (SELECT ${GROUP_ID_UNNEST_SQL} AS provider_group_id FROM raw_price_rows WHERE source_id = $1)
     WHERE provider_group_id IN (
       SELECT provider_group_id FROM raw_groups WHERE source_id = $1 AND remote_location IS NOT NULL AND provider_id IS NULL)`,
    [sourceId],
  );
  const used = new Set(named.getRows().map(([id]) => String(id)));
  const all = r.getRows().map(([id, loc]) => ({ provider_group_id: String(id), location: String(loc), used: used.has(String(id)) }));
  const groups: RemoteGroup[] = all.filter((g) => g.used).map(({ provider_group_id, location }) => ({ provider_group_id, location }));
  const out: RemoteOutcome = { used: groups.length, unused: all.length - groups.length, resolved: 0, failures: [], problems: [] };
  if (groups.length === 0) return out;
  const fetched = await resolver.resolveAll(groups);
  const rows = new SpoolRows(`${prefix}-remote-s${sourceId}`, sourceId);
  fetched.forEach((f, k) => {
    const g = groups[k]!;
    if (!f.ok) {
      out.failures.push({ ...g, reason: f.reason, ...(f.refused ? { refused: true as const } : {}) });
      return;
    }
    out.resolved++;
    for (const p of f.providers) rows.group(g.provider_group_id, p, null);
    for (const problem of f.problems) out.problems.push({ group: g, problem });
  });
  const files = rows.close();
  if (files.raw_groups) {
    await spool.load('raw_groups', files.raw_groups);
    await Promise.all(files.raw_groups.map((f) => unlink(f)));
    await spool.con.run(
      `DELETE FROM raw_groups p WHERE p.source_id = $1 AND p.provider_id IS NULL AND p.remote_location IS NOT NULL
         AND EXISTS (SELECT 1 FROM raw_groups g WHERE g.source_id = $1 AND g.provider_group_id = p.provider_group_id AND g.provider_id IS NOT NULL)`,
      [sourceId],
    );
  }
  return out;
}
