/**
 * The derived `unit_pivot` table (contract/files/dataset.ts UNIT_PIVOT_FILE,
 * workers/pricing/unit-pivot.ts offerStoredPivot): the converter and the generator store the
 * unit pivot of the default selection that the worker builds, the manifest lists it, and the
 * worker prices the latest month's national selections from it without reading `price_stats`:
 * every answer equal, to the last bit, to the one of the same dataset without the table, on the
 * converted fixture and on the generated market-year shape at its tiny size. The worker does read
 * the table (a reference price edited in it is the price answered), and refuses one that is not a
 * pivot of the dataset, naming the file, in every request that reads it; a request that does not
 * (a service search) is answered.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServicePricingResult } from '../../contract/api';
import { UNIT_PIVOT_FILE, type DatasetManifest } from '../../contract/files/dataset';
import { sqlString } from '../../contract/sql/sql-text';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { allCompetitors } from '../../workers/pricing/pricing-core';
import { defaultPivotTable, holdsPivot, selectionNeed } from '../../workers/pricing/unit-pivot';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { derivedDatasets } from './derived-datasets';

const sets = derivedDatasets('unit-pivot');
const { dirs } = sets;
const boot = (dir: string): Promise<DataService> => sets.boot(dir);

const manifestOf = async (dir: string): Promise<DatasetManifest> => JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;

/** A copy of the dataset in `dir` named `name`, its manifest changed by `edit`; its directory. */
async function copyOf(dir: string, name: string, edit: (m: DatasetManifest) => void): Promise<string> {
  const copy = path.join(sets.root, name);
  await cp(dir, copy, { recursive: true });
  const manifest = await manifestOf(copy);
  edit(manifest);
  await writeFile(path.join(copy, 'manifest.json'), JSON.stringify(manifest));
  return copy;
}

/** Runs `statement` on the copy's unit_pivot.parquet with native DuckDB, the file rewritten from table `p`. */
async function rewritePivot(dir: string, statement: string): Promise<void> {
  const file = path.join(dir, UNIT_PIVOT_FILE);
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    await con.run(`CREATE TABLE p AS SELECT * FROM read_parquet(${sqlString(file)})`);
    await con.run(statement);
    await con.run(`COPY p TO ${sqlString(file)} (FORMAT parquet)`);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

async function answer(service: DataService, p: string, query: Record<string, string>): Promise<unknown> {
  const res = await service.handle({ method: 'GET', path: p, query });
  expect(res.status, `${p} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

describe.each(['fixture', 'marketYear'] as const)('the unit pivot table of the %s dataset', (name) => {
  it('holds the pivot the worker builds, and prices every national selection of the month as the dataset without it does, reading no price_stats', async () => {
    const manifest = await manifestOf(dirs[name]);
    expect(manifest.tables.unit_pivot?.files).toEqual([UNIT_PIVOT_FILE]);
    const without = await copyOf(dirs[name], `${name}-without`, (m) => delete m.tables.unit_pivot);
    const [stored, built] = [await boot(dirs[name]), await boot(without)];
    const [ctx, builtCtx] = [stored.context()!, built.context()!];
    const month = manifest.snapshots.at(-1)!;
    expect(holdsPivot(ctx, month, 'ALL', 'market')).toBe(true);
    expect(selectionNeed(ctx, {}, 'ALL')).toBeNull();
    expect(holdsPivot(builtCtx, month, 'ALL', 'market')).toBe(false);
    expect(selectionNeed(builtCtx, {}, 'ALL')).not.toBeNull();
    // the table equals the pivot built afresh: columns, types, rows and their order, to the last bit
    await builtCtx.stats.ensure({ months: [month], scope: 'market', states: 'national' });
    const fresh = defaultPivotTable(builtCtx);
    expect(manifest.tables.unit_pivot?.rows).toBe(fresh.rows.length);
    expect(defaultPivotTable(ctx)).toEqual(fresh);
    const competitors = allCompetitors(ctx);
    const category = ctx.db.all<{ c: string }>({ text: 'SELECT min(category) AS c FROM services', params: [] } as never)[0]!.c;
    const queries: Array<Record<string, string>> = [
      {},
      { limit: '50', offset: '0', sort: 'overpayment', only_overpaying: 'true' },
      { limit: '25', offset: '25', sort: 'variance' },
      { limit: '10', sort: 'savings', billing_class: 'professional' },
      { billing_class: 'institutional', competitors: competitors.slice(0, 2).join(',') },
      { limit: '50', category },
      { limit: '50', competitors: competitors.slice(-1).join(','), only_overpaying: 'true' },
    ];
    // what the stored service's requests ask of price_stats, once what the boot loads behind it is in
    await stored.background();
    const asked: unknown[] = [];
    const ensure = ctx.stats.ensure.bind(ctx.stats);
    ctx.stats.ensure = (need) => (asked.push(need), ensure(need));
    for (const query of queries) {
      const [a, b] = [await answer(stored, '/api/service-pricing', query), await answer(built, '/api/service-pricing', query)];
      expect(JSON.stringify(a), JSON.stringify(query)).toBe(JSON.stringify(b));
    }
    const figures = await answer(stored, '/api/dashboard-figures', {});
    expect(JSON.stringify(figures)).toBe(JSON.stringify(await answer(built, '/api/dashboard-figures', {})));
    expect(asked).toEqual([]);
    // a state, or the shared providers, still price from price_stats, as before
    for (const query of [{ state: 'CA', limit: '5' }, { shared_providers: '1', limit: '5' }] as Array<Record<string, string>>) {
      expect(JSON.stringify(await answer(stored, '/api/service-pricing', query))).toBe(JSON.stringify(await answer(built, '/api/service-pricing', query)));
    }
    expect(asked).toHaveLength(2);
  });
});

describe('the unit pivot table, read', () => {
  it('is what the worker answers from: a reference price edited in it is the price answered', async () => {
    const edited = await copyOf(dirs.fixture, 'edited', () => {});
    await rewritePivot(edited, 'UPDATE p SET reference_price = 123456.78 WHERE unit_order = (SELECT min(unit_order) FROM p WHERE reference_price IS NOT NULL)');
    const service = await boot(edited);
    const body = (await answer(service, '/api/service-pricing', { sort: 'overpayment' })) as ServicePricingResult;
    expect(body.records.map((r) => r.reference_price)).toContain(123456.78);
  });

  it('refuses a table that is not a pivot of the dataset, naming the file', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['another-month', `UPDATE p SET month = '1999-01'`, /holds rows of another month or state/],
      ['no-insurer-column', 'ALTER TABLE p DROP COLUMN price_1', /missing: price_1/],
    ];
    for (const [name, statement, reason] of cases) {
      const dir = await copyOf(dirs.fixture, name, () => {});
      await rewritePivot(dir, statement);
      const service = createDataService(nodePlatform, { acks: memoryAckStore() });
      try {
        expect((await service.init({ dataUrl: dir + '/' })).status, name).toBe('ready');
        const search = await service.handle({ method: 'GET', path: '/api/services-search', query: { limit: '5' } });
        expect(search.status, name).toBe(200);
        // asked twice: a refused table is not replaced by one built from price_stats
        for (let asked = 0; asked < 2; asked++) {
          const res = await service.handle({ method: 'GET', path: '/api/service-pricing', query: {} });
          expect(res.status, name).toBe(500);
          const message = (res.body as { message: string }).message;
          expect(message, name).toMatch(new RegExp(`^${UNIT_PIVOT_FILE.replace('.', '\\.')}: `));
          expect(message, name).toMatch(reason);
        }
      } finally {
        await service.close();
      }
    }
  });
});
