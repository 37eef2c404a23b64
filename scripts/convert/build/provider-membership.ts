/**
 * Who each provider group stands for, by integer keys (build-tables.ts resolved_groups.gid).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES } from '../../../contract/files/dataset';

/**
 * The provider membership of the resolved groups, as tables of integer keys that the outlier
 * medians (outlier-medians.ts) and price_stats (build-price-stats.ts) share, both read into
 * series-rows.ts Membership: `ps_members` (gid, provider_id, state), `ps_shared` (provider_id -> `pid`, the
 * providers found in several groups), `ps_states` (st -> state, 0 = ALL), `ps_weights` (gid, st,
 * n: the group's providers found in no other group, per state, st 0 all of them) and
 * `ps_shared_members` (gid, pid, st). Only the kept groups have members (build-tables.ts).
 * A provider's pid follows its first group: the pids of a group are mostly consecutive, so the
 * per-pid arrays of series-medians.ts, which a group row walks in full, are read a cache line at a
 * time rather than at random (a third less time in its loop on the benchmark file).
 * @throws when SQL fails.
 */
export async function prepareMembers(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TABLE ps_members AS
    SELECT DISTINCT g.gid, m.provider_id, p.state
    FROM provider_groups m JOIN resolved_groups g USING (provider_group_key) LEFT JOIN providers p USING (provider_id);
    CREATE TABLE ps_shared AS
    SELECT provider_id, CAST(row_number() OVER (ORDER BY min(gid), provider_id) AS INTEGER) AS pid
    FROM ps_members GROUP BY provider_id HAVING count(*) > 1;
    CREATE TABLE ps_states AS
    SELECT CAST(row_number() OVER (ORDER BY state) AS USMALLINT) AS st, state
    FROM (SELECT DISTINCT state FROM ps_members WHERE state IS NOT NULL)
    UNION ALL SELECT 0, '${ALL_STATES}';
    CREATE TEMP TABLE ps_member_states AS
    SELECT m.gid, m.provider_id, s.st FROM ps_members m LEFT JOIN ps_states s ON s.state = m.state AND s.st > 0;
    CREATE TABLE ps_weights AS
    WITH single AS (SELECT * FROM ps_member_states ANTI JOIN ps_shared USING (provider_id))
    SELECT gid, 0::USMALLINT AS st, CAST(count(*) AS BIGINT) AS n FROM single GROUP BY ALL
    UNION ALL
    SELECT gid, st, CAST(count(*) AS BIGINT) FROM single WHERE st IS NOT NULL GROUP BY ALL;
    CREATE TABLE ps_shared_members AS
    SELECT m.gid, s.pid, m.st FROM ps_member_states m JOIN ps_shared s USING (provider_id);
    DROP TABLE ps_member_states;`);
}

