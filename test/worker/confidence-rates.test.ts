/**
 * A price's distribution and confidence in the rate rows dialog (docs/methodology.md, Confidence and
 * distribution; `GET /api/rate-rows`), on MRFs built here by hand, converted by the real converter
 * and answered by the data service. National Medicare amounts (the CMS 2025 files of the
 * repository): 99213 PFS non-facility, 70450 OPPS $106.34, 85025 CLFS $7.77.
 *
 * - alpha 99213: 5 providers at 50, 50, 100, 300, 300: p10 50, p25 50, p75 300, p90 300, spread 6x:
 *   low.
 * - ref 99213: 3 providers at 90, 95, 100: p10 = 90 + 0.2 x 5 = 91, p90 = 95 + 0.8 x 5 = 99: medium
 *   (support).
 * - ref 70450: 5 providers, `derived` institutional rates 300 .. 340 (282-320 % of Medicare, within
 *   1.2x): medium (derived).
 * - alpha 85025: 5 providers at 92, 93, 93.24, 94, 95: median 93.24 = 1,200 % of $7.77: low (Medicare).
 * - one provider with two rates (alpha 99283 at 40 and 60) counts once, by their midpoint 50: low
 *   (1 provider), and 73 % of its PFS amount named too.
 *
 * The comparison's units (`GET /api/service-pricing`): each unit the lowest of its two prices, from
 * the distributions the converter stored, and the same under each option. The claims name the
 * billing providers of 99213: providers 0, 1, 3 and 4 (99213 at $88.95, PFS non-facility).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServicePricingRecord, MarketBandResult, RateRowsResult, ServicePricingResult } from '../../contract/api';
import { answerFromPass, servicePricing } from '../../workers/api/service-pricing';
import { monthNeed } from '../../workers/pricing/pricing-core';
import { SqlFragment } from '../../workers/db/sql';
import { convertCatalog } from '../../scripts/convert/index';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { item } from '../convert/mrf-json';

/** A 10-digit NPI `80840`-prefixed Luhn-valid from a 9-digit base. */
function npi(base: number): number {
  const digits = `80840${base}`.split('').map(Number).reverse();
  const sum = digits.reduce((a, d, i) => a + (i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return Number(`${base}${(10 - (sum % 10)) % 10}`);
}

const NPIS = [100000001, 100000002, 100000003, 100000004, 100000005].map(npi);

/** A v1 negotiated rate of `rate` at NPI `n`: `type`, class and places of service as given. */
const rateAt = (n: number, rate: number, o: { type?: string; cls?: string; pos?: string } = {}): string =>
  `{"provider_groups":[{"npi":[${n}],"tin":{"type":"ein","value":"11-1111111"}}],"negotiated_prices":[{"negotiated_type":"${o.type ?? 'negotiated'}",`
  + `"negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"${o.cls ?? 'professional'}"${o.pos === '' ? '' : `,"service_code":["${o.pos ?? '11'}"]`}}]}`;

const file = (items: string[]): string => JSON.stringify({
  reporting_entity_name: 'Confidence Plan', reporting_entity_type: 'issuer', last_updated_on: '2025-06-01', version: '1.0.0',
}).replace(/}$/, `,"in_network":[${items.join(',')}]}`);

const REF = file([
  item('99213', [90, 95, 100].map((r, i) => rateAt(NPIS[i]!, r)).join(',')),
  item('70450', [300, 310, 320, 330, 340].map((r, i) => rateAt(NPIS[i]!, r, { type: 'derived', cls: 'institutional', pos: '' })).join(',')),
]);
/** A second competitor for the market band: 99213 at providers 0 and 1, 200 and 210. */
const BETA = file([item('99213', [200, 210].map((r, i) => rateAt(NPIS[i]!, r)).join(','))]);
const ALPHA = file([
  item('99213', [50, 50, 100, 300, 300].map((r, i) => rateAt(NPIS[i]!, r)).join(',')),
  item('85025', [92, 93, 93.24, 94, 95].map((r, i) => rateAt(NPIS[i]!, r, { pos: '81' })).join(',')),
  item('99283', [rateAt(NPIS[0]!, 40), rateAt(NPIS[0]!, 60)].join(',')),
]);

let root: string;
let service: DataService;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-confidence-'));
  await writeFile(join(root, 'ref.json'), REF);
  await writeFile(join(root, 'alpha.json'), ALPHA);
  await writeFile(join(root, 'beta.json'), BETA);
  await writeFile(join(root, 'claims.csv'), `billing_code,claims_count,npi\n${[0, 1, 3, 4].map((i) => `99213,10,${NPIS[i]}`).join('\n')}\n`);
  await writeFile(join(root, 'catalog.json'), JSON.stringify({
    reference_insurer: 'ref', claims_volume: 'claims.csv',
    insurers: [{ id: 'ref', name: 'Ref', files: [{ url: 'ref.json' }] }, { id: 'alpha', name: 'Alpha', files: [{ url: 'alpha.json' }] },
      { id: 'beta', name: 'Beta', files: [{ url: 'beta.json' }] }],
  }));
  await convertCatalog(join(root, 'catalog.json'), join(root, 'out'), { quiet: true });
  service = createDataService(nodePlatform);
  expect((await service.init({ dataUrl: join(root, 'out') + '/' })).status).toBe('ready');
}, 180_000);

afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function rows(query: Record<string, string>): Promise<RateRowsResult> {
  const res = await service.handle({ method: 'GET', path: '/api/rate-rows', query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RateRowsResult;
}

const office = { billing_class: 'professional', component: 'global', setting: 'non-facility' };
const pick = (r: RateRowsResult) => ({ p10: r.p10, p25: r.p25, p75: r.p75, p90: r.p90, derived: r.derived, confidence: r.confidence, reasons: r.confidence_reasons });

describe("a price's distribution and confidence in its rate rows", () => {
  it('5 providers spread 6x: low', async () => {
    expect(pick(await rows({ service_id: '99213', insurer_id: 'alpha', ...office }))).toEqual({
      p10: 50, p25: 50, p75: 300, p90: 300, derived: false, confidence: 'low', reasons: ["providers' prices spread 6x (p90 / p10)"],
    });
  });

  it('3 providers: medium, whatever their spread', async () => {
    const r = pick(await rows({ service_id: '99213', insurer_id: 'ref', ...office }));
    expect(r).toMatchObject({ p25: 92.5, p75: 97.5, derived: false, confidence: 'medium', reasons: ['rests on 3 providers'] });
    expect(r.p10).toBeCloseTo(91, 10);
    expect(r.p90).toBeCloseTo(99, 10);
  });

  it('a derived price: at most medium', async () => {
    expect(pick(await rows({ service_id: '70450', insurer_id: 'ref', billing_class: 'institutional', component: 'global', setting: 'facility' }))).toMatchObject({
      derived: true, confidence: 'medium', reasons: ['rests on derived rates (an estimate, not a contract term)'],
    });
  });

  it('a price at 1,200 % of Medicare: low', async () => {
    const r = await rows({ service_id: '85025', insurer_id: 'alpha', ...office });
    expect(r.median).toBe(93.24);
    expect(pick(r)).toMatchObject({ confidence: 'low', reasons: ['1,200 % of Medicare'] });
  });

  it('counts a provider once, by the median of its rates', async () => {
    const r = await rows({ service_id: '99283', insurer_id: 'alpha', ...office });
    // every check that lowers it is named: 50 is 73 % of 99283's PFS amount, between 50 and 75 %
    expect(r).toMatchObject({ rate_count: 2, provider_count: 1, p10: 50, p90: 50, confidence: 'low', confidence_reasons: ['rests on 1 provider', '73 % of Medicare'] });
  });

  it("equals, for every price the converter stored, to the last bit: p10 .. p90 and derived of price_stats' market rows", async () => {
    const ctx = service.context()!;
    await ctx.stats.ensure(monthNeed(ctx, {}, 'ALL'));
    const stored = ctx.db.all<{ insurer_id: string; billing_code: string; billing_class: string; component: string; setting: string;
      p10: number; p25: number; p75: number; p90: number; derived: boolean }>(new SqlFragment(`SELECT insurer_id, billing_code, billing_class,
      component, setting, p10, p25, p75, p90, derived FROM price_stats WHERE scope = 'market' AND state = 'ALL' ORDER BY ALL`, []));
    expect(stored.length).toBe(6); // ref 99213, 70450; alpha 99213, 85025, 99283; beta 99213
    for (const s of stored) {
      const r = await rows({ service_id: s.billing_code, insurer_id: s.insurer_id, billing_class: s.billing_class, component: s.component, setting: s.setting });
      expect({ p10: r.p10, p25: r.p25, p75: r.p75, p90: r.p90, derived: r.derived }, JSON.stringify(s)).toEqual(
        { p10: s.p10, p25: s.p25, p75: s.p75, p90: s.p90, derived: s.derived });
    }
  });

  it('without a valid row: no distribution, no confidence', async () => {
    expect(pick(await rows({ service_id: '85025', insurer_id: 'ref', ...office }))).toEqual({
      p10: null, p25: null, p75: null, p90: null, derived: false, confidence: null, reasons: [],
    });
  });
});

/** service-pricing against Alpha alone (the units' figures above), unless `query` names competitors. */
async function pricing(asked: Record<string, string>): Promise<ServicePricingResult> {
  const query = { competitors: 'alpha', ...asked };
  const res = await service.handle({ method: 'GET', path: '/api/service-pricing', query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // the SQL answer equals the pricing pass in JavaScript (service-pricing.ts answerFromPass)
  const ctx = service.context()!;
  await ctx.stats.ensure(monthNeed(ctx, {}, 'ALL'));
  expect(res.body).toEqual(await answerFromPass(servicePricing.parse(query, ctx), ctx));
  return res.body as ServicePricingResult;
}

const unitOf = (r: LiveServicePricingRecord): string => `${r.service_code} ${r.billing_class} ${r.component} ${r.setting}`;

describe("a comparison unit's confidence: the lowest of its prices', from the stored distributions", () => {
  it('names every price that lowers it, and a thin unit is low', async () => {
    const got = Object.fromEntries((await pricing({})).records.map((r) => [unitOf(r), { confidence: r.confidence, reasons: r.confidence_reasons }]));
    expect(got).toEqual({
      '99213 professional global non-facility': { confidence: 'low', reasons: ['rests on 3 providers (Ref)', "providers' prices spread 6x (p90 / p10) (Alpha)"] },
      '70450 institutional global facility': { confidence: 'medium', reasons: ['rests on derived rates (an estimate, not a contract term) (Ref)'] },
      '85025 professional global non-facility': { confidence: 'low', reasons: ['1,200 % of Medicare (Alpha)'] },
      '99283 professional global non-facility': {
        confidence: 'low', reasons: ['too few providers: competitor prices rest on 1 provider together', 'rests on 1 provider (Alpha)', '73 % of Medicare (Alpha)'],
      },
    });
  });

  it('follows the options: at shared providers, where we bill it, and both', async () => {
    const at = async (query: Record<string, string>) => (await pricing(query)).records.map((r) => [unitOf(r), r.confidence, r.confidence_reasons]);
    // shared: ref's three providers all have an Alpha rate; Alpha's rows at them are 50, 50, 100: median 50, 56 % of $88.95
    expect(await at({ shared_providers: '1' })).toEqual([['99213 professional global non-facility', 'medium',
      ['rests on 3 providers (Ref, Alpha)', '56 % of Medicare (Alpha)']]]);
    // billed at providers 0, 1, 3 and 4: ref 90 and 95; Alpha 50, 50, 300, 300
    expect(await at({ billed: '1' })).toEqual([['99213 professional global non-facility', 'medium', ['rests on 2 providers (Ref)', 'rests on 4 providers (Alpha)']]]);
    // both: providers 0 and 1; Alpha 50 and 50
    expect(await at({ shared_providers: '1', billed: '1' })).toEqual([['99213 professional global non-facility', 'medium',
      ['rests on 2 providers (Ref, Alpha)', '56 % of Medicare (Alpha)']]]);
    // a provider selection prices from the rate rows with the same rule: all five, Alpha spread 6x
    expect(await at({ providers: NPIS.map(String).join(','), services: '99213' })).toEqual([
      ['99213 professional global non-facility', 'low', ['rests on 3 providers (Ref)', "providers' prices spread 6x (p90 / p10) (Alpha)"]],
    ]);
  });

  it('min_confidence hides the units under it, from the list, the total and the summary cards', async () => {
    const every = await pricing({});
    expect(every.total).toBe(4);
    const medium = await pricing({ min_confidence: 'medium' });
    expect(medium.records.map(unitOf)).toEqual(['70450 institutional global facility']);
    expect(medium.total).toBe(1);
    // 70450 has no competitor price, hence no variance: no service left to count
    expect(medium.summary).toMatchObject({ services_total: 0, services_overpaying: 0, avg_overpayment: null, total_potential_savings: 0 });
    expect(every.summary.services_total).toBe(1);
    const high = await pricing({ min_confidence: 'high', limit: '25' });
    expect(high.records).toEqual([]);
    expect(high.total).toBe(0);
    const bad = await service.handle({ method: 'GET', path: '/api/service-pricing', query: { min_confidence: 'low' } });
    expect(bad.status).toBe(400);
  });
});

async function bands(query: Record<string, string>): Promise<Array<[string, number, number, number]>> {
  const res = await service.handle({ method: 'GET', path: '/api/market-band', query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as MarketBandResult).bands.map((b) => [`${b.service_code} ${b.billing_class} ${b.component} ${b.setting}`, b.p25, b.p75, b.providers]);
}

describe("a unit's market band: p25-p75 of the selected competitors' provider medians pooled", () => {
  it('pools the competitors, each provider once per competitor, under each option', async () => {
    const office = '99213 professional global non-facility';
    // Alpha 50, 50, 100, 300, 300 and Beta 200, 210: 50, 50, 100, 200, 210, 300, 300; p25 at 1.5 = 75, p75 at 4.5 = 255
    expect(await bands({ services: '99213', competitors: 'alpha,beta' })).toEqual([[office, 75, 255, 7]]);
    expect(await bands({ services: '99213,85025,99283', competitors: 'alpha' })).toEqual([
      ['85025 professional global non-facility', 93, 94, 5], [office, 50, 300, 5], ['99283 professional global non-facility', 50, 50, 1]]);
    // every competitor by default
    expect(await bands({ services: '99213' })).toEqual([[office, 75, 255, 7]]);
    // at shared providers (0, 1, 2): Alpha 50, 50, 100 and Beta 200, 210: p25 at 1 = 50, p75 at 3 = 200
    expect(await bands({ services: '99213', shared_providers: '1' })).toEqual([[office, 50, 200, 5]]);
    // where we bill it (0, 1, 3, 4): Alpha 50, 50, 300, 300 and Beta 200, 210: 50, 50, 200, 210, 300, 300
    expect(await bands({ services: '99213', billed: '1' })).toEqual([[office, 87.5, 277.5, 6]]);
    // providers 2 to 4: Alpha 100, 300, 300
    expect(await bands({ services: '99213', providers: NPIS.slice(2).join(',') })).toEqual([[office, 200, 300, 3]]);
    expect((await service.handle({ method: 'GET', path: '/api/market-band', query: {} })).status).toBe(400);
  });
});
