/**
 * `GET /api/alerts`, `GET /api/alerts-page`, `PUT /api/alerts/{id}/acknowledge`, `PUT /api/alerts/acknowledge-all`:
 * docs/methodology.md "Alerts" for the reference insurer, per comparison unit and state plus `All`, between
 * the latest snapshot and the one before it (rules, support and order in contract/rules/alert-rules.ts),
 * with the acknowledgements of the AckStore (who: the request's signed-in user; when: now). An
 * acknowledgement stored under the id an alert had when alerts were per service (legacyAlertId)
 * carries over to every alert of the same type, code, region and snapshot.
 *
 * The alert list is the dataset's derived table `alerts` when the manifest lists it (the converter
 * computed it with this module: contract/files/alerts-table.ts), else computed here (computeAlerts);
 * either is kept per dataset. Their merge with the acknowledgements,
 * and its open count, is kept per dataset too, until the store holds another acknowledgement: an
 * acknowledgement through these endpoints drops it, and its key, the store's size, catches one
 * stored by anyone else (another tab's worker on the same IndexedDB). A page is then a slice.
 */
import {
  ALL_REGION,
  compareRankedAlerts,
  evaluateAlerts,
  legacyAlertId,
  type Alert,
  type AlertFigures,
  type RankedAlert,
} from '../../contract/rules/alert-rules';
import { alertFromRow, type AlertRow } from '../../contract/files/alerts-table';
import { ALERTS_PAGE_DEFAULT_LIMIT, ALERTS_PAGE_MAX_LIMIT, type AlertsPageParams } from '../../contract/api';
import { ALL_STATES } from '../../contract/files/dataset';
import type { Acknowledgement } from '../acks/ack-store';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { ApiError } from './errors';
import { optional, parseInteger, required } from './params';
import { allCompetitors, EVERY_STATE, minProvidersOf, priceServicesByMonth, statsNeedOf, type PricedService } from '../pricing/pricing-core';
import type { StatsNeed } from '../db/stats';

/** Who an acknowledgement names when the page knows no signed-in name. */
export const UNKNOWN_USER = 'unknown user';

const unitKey = (r: PricedService): string => `${r.state}|${r.service_code}|${r.billing_class}|${r.component}|${r.setting}`;

/**
 * `month -> (state|unit -> record)` for `latest` and `previous`, from one statement, for the codes
 * where some unit could raise an alert (pricing-core.ts `alertCandidates`): at a national dataset's
 * size most units move little, and the others are never converted to records.
 */
function figuresAt(ctx: ApiContext, latest: string | undefined, previous: string | undefined, candidatesOnly: boolean): Map<string, Map<string, PricedService>> {
  const months = [latest, previous].filter((m): m is string => m !== undefined);
  const selection = {
    reference: ctx.manifest.reference_insurer,
    competitors: allCompetitors(ctx),
    billingClass: 'all' as const,
    state: EVERY_STATE,
    competitorPrices: false,
    alertCandidates: latest === undefined || !candidatesOnly ? undefined : { latest, previous },
  };
  const byMonth = priceServicesByMonth(ctx, selection, months);
  const out = new Map<string, Map<string, PricedService>>();
  for (const month of months) {
    const m = new Map<string, PricedService>();
    for (const r of byMonth.get(month) ?? []) m.set(unitKey(r), r);
    out.set(month, m);
  }
  return out;
}

const figures = (r: PricedService | undefined): AlertFigures => ({
  referencePrice: r?.reference_price ?? null,
  marketAverage: r?.market_average ?? null,
  variance: r?.reference_variance ?? null,
  referenceProviders: r?.reference_providers ?? 0,
  competitorProviders: r?.competitor_provider_total ?? 0,
  thin: r?.thin ?? true,
});

/** The alerts of the dataset, unacknowledged, sorted; computed once per dataset. @throws DatabaseError */
export function computeAlerts(ctx: ApiContext): Alert[] {
  return ctx.memo.get('alerts', () => rankAlerts(ctx));
}

/**
 * The alerts at [offset, offset + limit) of the dataset's stored list (its `alerts` table, which
 * the manifest lists; all from `offset` without `limit`), unacknowledged.
 * @throws SourceError or DatabaseError when the table cannot be read; Error for a row that is no alert
 */
async function storedAlerts(ctx: ApiContext, offset: number, limit?: number): Promise<Alert[]> {
  // apache-arrow (arrow-rows.ts) loads with the first stored list read, not with this module: the
  // converter's first view, which computes its alerts, never loads it (about 0.35 s of its start),
  // and the browser's worker script is the smaller by it
  const [{ rowsOfIpc }, ipc] = await Promise.all([import('../db/arrow-rows'), ctx.readDerived('alerts', offset, limit)]);
  return rowsOfIpc(ipc).map((r) => alertFromRow(r as unknown as AlertRow));
}

/**
 * The alerts of the dataset, unacknowledged, sorted: the rows of its `alerts` table when the
 * manifest lists one, else computeAlerts. Kept in ctx.memo either way.
 * @throws SourceError or DatabaseError when the table cannot be read; Error for a row that is no alert
 */
export async function alertList(ctx: ApiContext): Promise<readonly Alert[]> {
  if (!ctx.manifest.tables.alerts) return computeAlerts(ctx);
  return ctx.memo.get('alerts', () => storedAlerts(ctx, 0));
}

/**
 * The months the alerts compare: the one before the latest snapshot month (undefined when the
 * dataset has one month) and the latest (undefined when it has none).
 */
function alertMonths(ctx: ApiContext): [string | undefined, string | undefined] {
  const months = [...ctx.manifest.snapshots].sort();
  return [months[months.length - 2], months[months.length - 1]];
}

/**
 * What the alerts read of price_stats (endpoint.ts stats): nothing when the dataset stores them,
 * else their two months, market rows, every state and national.
 */
const stats = (_params: unknown, ctx: ApiContext): StatsNeed | null =>
  ctx.manifest.tables.alerts ? null : statsNeedOf({ state: EVERY_STATE }, alertMonths(ctx).filter((m): m is string => m !== undefined));

/**
 * The alert list computed afresh. `candidatesOnly` false prices every unit rather than the codes
 * the SQL pre-filter keeps: the same list, slower (test/worker/alert-candidates.test.ts compares them).
 * @throws DatabaseError
 */
export function rankAlerts(ctx: ApiContext, candidatesOnly = true): Alert[] {
  const [previous, latest] = alertMonths(ctx);
  const at = figuresAt(ctx, latest, previous, candidatesOnly);
  const now = at.get(latest ?? '') ?? new Map<string, PricedService>();
  const before = at.get(previous ?? '') ?? new Map<string, PricedService>();
  const minProviders = minProvidersOf(ctx);
  const ranked: RankedAlert[] = [];
  for (const [key, r] of now) {
    ranked.push(
      ...evaluateAlerts({
        billingCode: r.service_code,
        billingClass: r.billing_class,
        component: r.component,
        setting: r.setting,
        serviceName: r.service_name,
        region: r.state === ALL_STATES ? ALL_REGION : r.state,
        snapshot: latest!,
        previousSnapshot: previous ?? '',
        latest: figures(r),
        previous: figures(before.get(key)),
        claimsVolume: r.claims_volume,
        minProviders,
      }),
    );
  }
  return ranked.sort(compareRankedAlerts).map((x) => x.alert);
}

/**
 * The acknowledgement of an alert: the one stored under its id, else one stored under its
 * per-service id (legacyAlertId: acknowledgements made before alerts were per unit carry over to
 * every alert of the same type, code, region and snapshot).
 */
export function acknowledgementOf(a: Alert, acks: ReadonlyMap<string, Acknowledgement>): Acknowledgement | undefined {
  return acks.get(a.id) ?? acks.get(legacyAlertId(a.type, a.serviceCode, a.region, a.createdAt.slice(0, 7)));
}

/** The alerts with their stored acknowledgements, and how many are open (not acknowledged). */
interface MergedAlerts {
  /** The store's size when it was read for this merge (AckStore.size: equal size, same contents). */
  ackCount: number;
  alerts: readonly Alert[];
  open: number;
}

/** Per dataset, the last merge and the list of computeAlerts it was made from. */
const mergedByContext = new WeakMap<ApiContext, MergedAlerts & { from: readonly Alert[] }>();

/**
 * The alerts with their stored acknowledgements: the kept merge while it was made from the kept
 * alert list (ctx.memo may have forgotten it) and the store's size is the same, else a new one.
 */
async function withAcks(ctx: ApiContext): Promise<MergedAlerts> {
  const computed = await alertList(ctx);
  const kept = mergedByContext.get(ctx);
  if (kept && kept.from === computed && kept.ackCount === (await ctx.acks.size())) return kept;
  const acks = await ctx.acks.all();
  let open = 0;
  const alerts = computed.map((a) => {
    const ack = acknowledgementOf(a, acks);
    if (!ack) open++;
    return ack ? { ...a, acknowledged: true, acknowledgedBy: ack.by, acknowledgedAt: ack.at } : a;
  });
  // Keyed on the size of the map merged, not of an earlier read: a put in between only makes the next call merge again.
  const merged = { ackCount: acks.size, alerts, open, from: computed };
  mergedByContext.set(ctx, merged);
  return merged;
}

/** Stores acknowledgements and drops the kept merge of `ctx`. */
async function storeAcks(ctx: ApiContext, entries: ReadonlyArray<readonly [string, Acknowledgement]>): Promise<void> {
  try {
    await ctx.acks.put(entries);
  } finally {
    mergedByContext.delete(ctx);
  }
}

export const alerts: Endpoint<'GET /api/alerts'> = {
  route: 'GET /api/alerts',
  reads: 'first-tables',
  stats,
  parse: () => ({}),
  run: async (_params, ctx) => (await withAcks(ctx)).alerts.slice(),
};

/**
 * `GET /api/alerts-page[?offset][&limit]`: the alerts at [offset, offset + limit) of the
 * `GET /api/alerts` list (same order, same acknowledgements), with the list's total and open
 * counts. offset >= 0 (default 0), limit 1..ALERTS_PAGE_MAX_LIMIT (default ALERTS_PAGE_DEFAULT_LIMIT).
 * @throws ApiError 400 for a bad offset or limit
 */
export const alertsPage: Endpoint<'GET /api/alerts-page'> = {
  route: 'GET /api/alerts-page',
  reads: 'first-tables',
  stats,
  parse: (query) => {
    const p: AlertsPageParams = {};
    const offset = optional(query, 'offset');
    if (offset !== undefined) p.offset = parseInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
    const limit = optional(query, 'limit');
    if (limit !== undefined) p.limit = parseInteger('limit', limit, 1, ALERTS_PAGE_MAX_LIMIT);
    return p;
  },
  async run(params, ctx) {
    const offset = params.offset ?? 0;
    const limit = params.limit ?? ALERTS_PAGE_DEFAULT_LIMIT;
    const stored = ctx.manifest.tables.alerts;
    // with no acknowledgement stored, a stored list's page is its rows alone (the list is never decoded whole)
    if (stored && !mergedByContext.has(ctx) && (await ctx.acks.size()) === 0) {
      const items = offset < stored.rows ? await storedAlerts(ctx, offset, limit) : [];
      return { total: stored.rows, open: stored.rows, items };
    }
    const { alerts: all, open } = await withAcks(ctx);
    return { total: all.length, open, items: all.slice(offset, offset + limit) };
  },
};

export const acknowledgeAlert: Endpoint<'PUT /api/alerts/{id}/acknowledge'> = {
  route: 'PUT /api/alerts/{id}/acknowledge',
  reads: 'first-tables',
  stats,
  parse: (query) => ({ id: required(query, 'id') }),
  async run({ id }, ctx, request): Promise<Alert> {
    if (!(await alertList(ctx)).some((a) => a.id === id)) throw new ApiError(404, 'not_found', `unknown alert: ${id}`);
    await storeAcks(ctx, [[id, { by: request.user || UNKNOWN_USER, at: new Date().toISOString() }]]);
    return (await withAcks(ctx)).alerts.find((a) => a.id === id)!;
  },
};

export const acknowledgeAll: Endpoint<'PUT /api/alerts/acknowledge-all'> = {
  route: 'PUT /api/alerts/acknowledge-all',
  reads: 'first-tables',
  stats,
  parse: () => ({}),
  async run(_params, ctx, request) {
    const open = (await withAcks(ctx)).alerts.filter((a) => !a.acknowledged);
    const ack = { by: request.user || UNKNOWN_USER, at: new Date().toISOString() };
    await storeAcks(ctx, open.map((a) => [a.id, ack] as const));
    return { acknowledged: open.length, alerts: (await withAcks(ctx)).alerts.slice() };
  },
};
