/**
 * What a pricing selection (pricing-core.ts) reads of `price_stats`: which rows must be loaded
 * (StatsNeed, db/stats.ts), and which snapshot of each insurer a month takes (docs/methodology.md,
 * Rows that count; contract/rules/metrics.ts chosenSnapshots) over the insurers' market snapshots.
 */
import { ALL_STATES, priceScope, type DatasetManifest, type StatsSnapshot } from '../../contract/files/dataset';
import { chosenSnapshots } from '../../contract/rules/metrics';
import type { Database } from '../db/database';
import type { StatsNeed } from '../db/stats';
import { joinSql, sql, type SqlFragment } from '../db/sql';
import type { ApiContext } from '../context';

/** `state` value asking for every state and the national rows at once. */
export const EVERY_STATE = '*' as const;

/**
 * What a selection in `state` (a state code, ALL_STATES or EVERY_STATE) over `months` reads of
 * price_stats (db/stats.ts): the scope its `sharedProviders` and `billed` pick (contract/files/dataset.ts
 * priceScope), and national rows, every state's rows and national ones, or one state's rows.
 */
export function statsNeedOf(s: ScopedState, months: readonly string[]): StatsNeed {
  const scope = priceScope(s.sharedProviders === true, s.billed === true);
  if (s.state === EVERY_STATE) return { months, scope, states: 'all' };
  if (s.state === ALL_STATES) return { months, scope, states: 'national' };
  return { months, scope, states: 'states', state: s.state };
}

/** A selection's state (a state code, ALL_STATES or EVERY_STATE) and provider options. */
export interface ScopedState {
  state: string;
  sharedProviders?: boolean | undefined;
  billed?: boolean | undefined;
}

/** The latest snapshot of the dataset, or '' when it has none. */
export function latestSnapshot(ctx: ApiContext): string {
  const s = ctx.manifest.snapshots;
  return s[s.length - 1] ?? '';
}

/** A request's month and provider options, as parsed (params.ts parseProviderOptions). */
export interface MonthOptions {
  snapshot?: string | undefined;
  shared_providers?: boolean | undefined;
  billed?: boolean | undefined;
}

/** What a request for one month (`snapshot`, else the latest) in `state` reads of price_stats (endpoint.ts stats). */
export function monthNeed(ctx: ApiContext, p: MonthOptions, state: string): StatsNeed {
  return statsNeedOf({ state, sharedProviders: p.shared_providers, billed: p.billed }, [p.snapshot ?? latestSnapshot(ctx)]);
}

/**
 * Refuses a selection whose price_stats rows are not loaded: priced anyway, its insurers would
 * look as if they had no rate (db/stats.ts). @throws Error naming the months
 */
export function assertStatsLoaded(ctx: ApiContext, s: ScopedState, months: readonly string[]): void {
  if (!ctx.stats.holds(statsNeedOf(s, months))) {
    throw new Error(`price_stats of ${months.join(', ')} is not loaded: the endpoint must declare what it reads (endpoint.ts stats)`);
  }
}

/** Per database: the (insurer, snapshot) pairs of price_stats' market rows when the manifest does not list them (table stats_snapshots, read once). */
const tablePairs = new WeakMap<Database, StatsSnapshot[]>();

/**
 * The insurers' market snapshots in price_stats: the manifest's list (written with the table, and
 * the only whole list while the table loads by month), else the boot's table `stats_snapshots`.
 */
function marketSnapshots(ctx: ApiContext): readonly StatsSnapshot[] {
  // a context a test builds by hand may carry a manifest without tables
  const listed = (ctx.manifest.tables as Partial<DatasetManifest['tables']> | undefined)?.price_stats?.stats_snapshots;
  if (listed) return listed;
  let pairs = tablePairs.get(ctx.db);
  if (!pairs) {
    pairs = ctx.db.all<{ insurer_id: string; snapshot: string }>(sql`SELECT insurer_id, snapshot FROM stats_snapshots`);
    tablePairs.set(ctx.db, pairs);
  }
  return pairs;
}

/**
 * `(month, insurer_id, snapshot)` rows: for each month, each of `insurers`' latest price_stats
 * snapshot at or before it; an insurer with none is absent.
 */
export function chosenRows(ctx: ApiContext, months: readonly string[], insurers: readonly string[]): SqlFragment {
  const known = marketSnapshots(ctx);
  const rows: SqlFragment[] = [];
  for (const month of months) {
    const chosen = chosenSnapshots(known, month);
    for (const id of insurers) {
      const snapshot = chosen.get(id);
      if (snapshot !== undefined) rows.push(sql`(${month}::VARCHAR, ${id}::VARCHAR, ${snapshot}::VARCHAR)`);
    }
  }
  if (rows.length === 0) return sql`SELECT NULL::VARCHAR AS month, NULL::VARCHAR AS insurer_id, NULL::VARCHAR AS snapshot WHERE false`;
  return sql`SELECT * FROM (VALUES ${joinSql(rows, ', ')}) v(month, insurer_id, snapshot)`;
}
