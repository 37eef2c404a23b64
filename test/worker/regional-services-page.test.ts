/**
 * `GET /api/regional-services-page` (the live state modal's rows a page at a time) over the fixture
 * dataset converted by the real converter (test/fixtures/api; see live-endpoints.test.ts for the
 * hand-computed CA rows): every page is a slice of the `GET /api/regional-services` rows in the
 * order the table's own sort gives them, searched on code or name, with the state's counts.
 */
import { describe, expect, it } from 'vitest';
import {
  REGIONAL_SERVICES_SORTS,
  type ApiErrorBody,
  type RegionalServiceRow,
  type RegionalServicesPage,
  type RegionalServicesSort,
} from '../../contract/api';
import { sortRows } from '../../contract/rules/sort-rows';
import { bootStrictAndLoose, okBody } from './fixture-dataset';

const fx = bootStrictAndLoose();

const page = (query: Record<string, string>): Promise<RegionalServicesPage> => okBody<RegionalServicesPage>(fx.strict, '/api/regional-services-page', query);
const codes = (p: RegionalServicesPage): string[] => p.items.map((r) => r.service_code);

/** What the table sorts a column by (src/components/map/RegionModal.tsx columns). */
const TABLE_VALUE: Record<RegionalServicesSort, (r: RegionalServiceRow) => number | string | null> = {
  service: (r) => `${r.service_code} ${r.service_name}`,
  your_price: (r) => r.your_price,
  market_avg: (r) => r.market_avg,
  overpayment_pct: (r) => r.overpayment_pct,
};

describe('regional-services-page', () => {
  it('answers the first page of a state with its counts, in the default order', async () => {
    const all = await okBody<RegionalServiceRow[]>(fx.strict, '/api/regional-services', { state: 'CA' });
    const first = await page({ state: 'ca' });
    // CA: 99213, 70450, 80053 thin; G0008 not (live-endpoints.test.ts)
    expect(first).toEqual({ total: 4, matched: 4, thin: 3, items: all });
    expect(codes(first)).toEqual(['99213', '70450', '80053', 'G0008']);
    expect(codes(await page({ state: 'CA', offset: '1', limit: '2' }))).toEqual(['70450', '80053']);
    expect((await page({ state: 'CA', offset: '9' })).items).toEqual([]);
    expect(await page({ state: 'TX' })).toEqual({ total: 0, matched: 0, thin: 0, items: [] });
  });

  it('sorts each column both ways as the table sorts the whole list, nulls last', async () => {
    const all = await okBody<RegionalServiceRow[]>(fx.strict, '/api/regional-services', { state: 'CA' });
    for (const sort of REGIONAL_SERVICES_SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        const p = await page({ state: 'CA', sort, direction });
        expect(p.items, `${sort} ${direction}`).toEqual(sortRows(all, TABLE_VALUE[sort], direction));
      }
    }
    // Your Price: 80053 $30, 99213 $110, 70450 $500; G0008 has none and stays last both ways.
    expect(codes(await page({ state: 'CA', sort: 'your_price', direction: 'asc' }))).toEqual(['80053', '99213', '70450', 'G0008']);
    expect(codes(await page({ state: 'CA', sort: 'your_price', direction: 'desc' }))).toEqual(['70450', '99213', '80053', 'G0008']);
    expect(codes(await page({ state: 'CA', sort: 'service', direction: 'asc', limit: '2' }))).toEqual(['70450', '80053']);
  });

  it('searches the billing code and the service name, case-insensitively', async () => {
    const byCode = await page({ state: 'CA', q: ' 0450 ' });
    expect([codes(byCode), byCode.matched, byCode.total, byCode.thin]).toEqual([['70450'], 1, 4, 3]);
    expect(codes(await page({ state: 'CA', q: 'g00' }))).toEqual(['G0008']);
    const name = (await page({ state: 'CA', q: '99213' })).items[0]!.service_name;
    const word = name.split(/\s+/).find((w) => w.length >= 4)!;
    const byName = await page({ state: 'CA', q: word.toUpperCase() });
    expect(codes(byName)).toContain('99213');
    expect(byName.items.every((r) => r.service_name.toLowerCase().includes(word.toLowerCase()) || r.service_code.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(await page({ state: 'CA', q: 'no such service' })).toEqual({ total: 4, matched: 0, thin: 3, items: [] });
  });

  it('names a bad parameter', async () => {
    for (const [query, error] of [
      [{}, 'invalid state: '],
      [{ state: 'CA', sort: 'savings' }, 'invalid sort: savings'],
      [{ state: 'CA', direction: 'up' }, 'invalid direction: up'],
      [{ state: 'CA', limit: '0' }, 'invalid limit: 0'],
      [{ state: 'CA', limit: '201' }, 'invalid limit: 201'],
      [{ state: 'CA', offset: '-1' }, 'invalid offset: -1'],
      [{ state: 'CA', snapshot: '1999-01' }, 'invalid snapshot: 1999-01'],
    ] as const) {
      const res = await fx.strict.get('/api/regional-services-page', query);
      expect([res.status, (res.body as ApiErrorBody).error.message], JSON.stringify(query)).toEqual([400, error]);
    }
  });
});
