/**
 * The derived `alerts` table (contract/files/alerts-table.ts): the converter and the generator write the
 * alert list the worker computes, the manifest lists it, and the worker answers the alerts from it:
 * the same list, to the last bit, as rankAlerts computes afresh on the dataset, on the converted
 * fixture (min_providers 1: nine alerts, alerts.test.ts) and on the generated market-year shape at
 * its tiny size (three months, alerts between the last two). The worker does read the table (a
 * title edited in it is the title answered), and acknowledgements merge into it as before.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../contract/rules/alert-rules';
import { ALERTS_FILE, alertFromRow, alertRow } from '../../contract/files/alerts-table';
import type { AlertsPage } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import { writeAlertsTable } from '../../scripts/convert/build/output/alerts-table';
import { rankAlerts } from '../../workers/api/alerts';
import type { DataService } from '../../workers/data-service';
import { derivedDatasets } from './derived-datasets';

// min_providers 1: the fixture then raises nine alerts (alerts.test.ts)
const sets = derivedDatasets('alerts-table', { validation: { min_providers: 1 } });
const { dirs } = sets;
const boot = (dir: string): Promise<DataService> => sets.boot(dir);

const manifestOf = async (dir: string): Promise<DatasetManifest> => JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;

/** A copy of the dataset in `dir`, named `name`, whose alerts table holds `alerts`; its directory. */
async function copyWithAlerts(dir: string, name: string, alerts: readonly Alert[]): Promise<string> {
  const copy = path.join(sets.root, name);
  await cp(dir, copy, { recursive: true });
  const manifest = await manifestOf(copy);
  manifest.tables.alerts = await writeAlertsTable(copy, alerts);
  await writeFile(path.join(copy, 'manifest.json'), JSON.stringify(manifest));
  return copy;
}

async function answered(service: DataService, p: string, method: 'GET' | 'PUT' = 'GET', query: Record<string, string> = {}): Promise<unknown> {
  const res = await service.handle({ method, path: p, query, user: 'Ana' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe.each(['fixture', 'marketYear'] as const)('the alerts table of the %s dataset', (name) => {
  it('is listed in the manifest with its rows, and answers what rankAlerts computes afresh', async () => {
    const manifest = await manifestOf(dirs[name]);
    const table = manifest.tables.alerts!;
    expect(table.files).toEqual([ALERTS_FILE]);
    const service = await boot(dirs[name]);
    const ctx = service.context()!;
    const groups = ctx.stats.loadedGroups();
    const stored = (await answered(service, '/api/alerts')) as Alert[];
    // the answer comes from the table: no price_stats row was loaded for it
    expect(ctx.stats.loadedGroups()).toBe(groups);
    await ctx.stats.ensure({ months: manifest.snapshots.slice(-2), scope: 'market', states: 'all' });
    const fresh = rankAlerts(ctx);
    expect(table.rows).toBe(fresh.length);
    expect(fresh.length).toBeGreaterThan(name === 'fixture' ? 8 : 100);
    expect(stored).toEqual(fresh);
    // bit for bit: the dollar values are the same doubles
    expect(stored.map((a) => [a.affectedValue, a.marketValue])).toStrictEqual(fresh.map((a) => [a.affectedValue, a.marketValue]));
    const page = (await answered(service, '/api/alerts-page', 'GET', { offset: '3', limit: '5' })) as AlertsPage;
    expect(page).toEqual({ total: fresh.length, open: fresh.length, items: fresh.slice(3, 8) });
  });
});

describe('the worker reads the alerts table', () => {
  it('answers a title edited in the table, and merges acknowledgements into it', async () => {
    const service = await boot(dirs.fixture);
    const fresh = (await answered(service, '/api/alerts')) as Alert[];
    const edited = fresh.map((a, i) => (i === 0 ? { ...a, title: 'Edited in alerts.parquet' } : a));
    const reread = await boot(await copyWithAlerts(dirs.fixture, 'edited', edited));
    const page = (await answered(reread, '/api/alerts-page', 'GET', { limit: '2' })) as AlertsPage;
    expect(page.items[0]!.title).toBe('Edited in alerts.parquet');
    expect(page.items[1]).toEqual(fresh[1]);
    const acked = (await answered(reread, `/api/alerts/${fresh[1]!.id}/acknowledge`, 'PUT', { id: fresh[1]!.id })) as Alert;
    expect(acked).toMatchObject({ id: fresh[1]!.id, acknowledged: true, acknowledgedBy: 'Ana' });
    const after = (await answered(reread, '/api/alerts-page', 'GET', { limit: '2' })) as AlertsPage;
    expect(after.open).toBe(fresh.length - 1);
    expect(after.items[1]).toMatchObject({ acknowledged: true, acknowledgedBy: 'Ana' });
  });
});

describe('a page of a stored list', () => {
  it('decodes the rows of its offset across row groups, with the list total and open counts', async () => {
    const fresh = (await answered(await boot(dirs.marketYear), '/api/alerts')) as Alert[];
    // 4,500 alerts: three row groups of ALERTS_ROW_GROUP_ROWS, the last one partial
    const long: Alert[] = Array.from({ length: 4500 }, (_, i) => ({ ...fresh[i % fresh.length]!, id: `${fresh[i % fresh.length]!.id}-${i}` }));
    // a market value of NULL (a price spike where no competitor has a price) reads back as null
    long[2041] = { ...long[2041]!, marketValue: null };
    const service = await boot(await copyWithAlerts(dirs.marketYear, 'long', long));
    for (const [offset, limit] of [[0, 20], [2040, 20], [4090, 20], [4490, 20], [4500, 20], [9000, 5]] as const) {
      const page = (await answered(service, '/api/alerts-page', 'GET', { offset: String(offset), limit: String(limit) })) as AlertsPage;
      expect(page).toEqual({ total: 4500, open: 4500, items: long.slice(offset, offset + limit) });
    }
    expect((await answered(service, '/api/alerts')) as Alert[]).toEqual(long);
  });
});

describe('alertFromRow', () => {
  const alert: Alert = {
    id: '0123456789abcdef', type: 'outlier', severity: 'low', title: 't', description: 'd', serviceCode: '99213',
    serviceName: 'Office visit', billingClass: 'professional', component: 'global', setting: 'non-facility', region: 'CA',
    affectedValue: 110.5, marketValue: null, createdAt: '2025-02-01', acknowledged: false, acknowledgedBy: null, acknowledgedAt: null,
  };

  it('gives back the alert of its row', () => {
    expect(alertFromRow(alertRow(alert, 7))).toEqual(alert);
  });

  it('refuses a row that is no alert, naming its rank and field', () => {
    expect(() => alertFromRow({ ...alertRow(alert, 7), severity: 'urgent' })).toThrow('alerts.parquet, rank 7: severity "urgent" is not a value of the Alert entity');
    expect(() => alertFromRow({ ...alertRow(alert, 3), billing_class: 'Professional' })).toThrow('rank 3: billing_class');
  });
});
