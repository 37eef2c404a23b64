// The sample comparison's rules, docs/screens.md (Sample comparison): overpayment, savings, type by code ending,
// filters and the three sort orders, on hand-made services.
import { describe, expect, it } from 'vitest';
import { comparisonRows, comparisonSummary, compareService, scopeRows, serviceType, type ComparisonFilters } from '../../src/sample/data/comparison';
import { dashboardKpis, topOverpaid } from '../../src/sample/data/dashboard-kpis';
import type { SampleService } from '../../src/sample/data/services';

function service(code: string, anthem: number, others: number, claims: number, market = others): SampleService {
  const marketPrices = { unitedhealth: others, kaiser: others, aetna: others, cigna: market, humana: market, bcbs: market,
    molina: market, centene: market, healthnet: market };
  const avg = (3 * others + 6 * market) / 9;
  return { serviceCode: code, serviceName: `S${code}`, category: 'Laboratory', description: '', anthemPrice: anthem,
    marketPrices, marketAverage: avg, anthemVariance: (100 * (anthem - avg)) / avg, claimsVolume: claims, cptCode: code,
    keywords: [], lastUpdated: '2024-01-15' };
}

const BASE: ComparisonFilters = { competitors: ['unitedhealth', 'kaiser', 'aetna'], category: null, overpayingOnly: true,
  professional: true, institutional: true, sort: 'overpayment', serviceCodes: [] };

describe('sample comparison', () => {
  it('derives the service type from the code ending: 0 or 5 institutional', () => {
    expect(['99203', '70550', '85025', '45378'].map(serviceType)).toEqual(['professional', 'institutional', 'institutional', 'professional']);
  });

  it('computes overpayment against the selected competitors, else the market average', () => {
    const s = service('99203', 168, 144, 100, 153);
    const r = compareService(s, ['unitedhealth', 'kaiser']);
    expect(r.selectedAvg).toBe(144);
    expect(r.overpayment).toBe(24); // 168 - 144
    expect(r.variance).toBeCloseTo(16.667, 3); // 24 / 144
    expect(r.savings).toBe(2400); // 24 x 100
    // none selected: market average (3 x 144 + 6 x 153) / 9 = 150; 168 - 150 = 18
    expect(compareService(s, []).overpayment).toBe(18);
    expect(compareService(service('1', 90, 100, 50), ['kaiser']).savings).toBe(0); // overpayment -10 -> 0
  });

  it('filters overpaying rows and types, and sorts by the three orders', () => {
    const list = [
      service('11111', 120, 100, 10), // +20, +20 %, 200
      service('22222', 150, 140, 100), // +10, +7.1 %, 1,000
      service('33330', 60, 40, 5), // +20 (institutional), +50 %, 100
      service('44444', 80, 100, 10), // -20
    ];
    expect(comparisonRows(list, BASE).map((r) => r.service.serviceCode)).toEqual(['11111', '33330', '22222']); // ties by code
    expect(comparisonRows(list, { ...BASE, sort: 'variance' }).map((r) => r.service.serviceCode)).toEqual(['33330', '11111', '22222']);
    expect(comparisonRows(list, { ...BASE, sort: 'savings' }).map((r) => r.service.serviceCode)).toEqual(['22222', '11111', '33330']);
    expect(comparisonRows(list, { ...BASE, overpayingOnly: false })).toHaveLength(4);
    expect(comparisonRows(list, { ...BASE, professional: false }).map((r) => r.service.serviceCode)).toEqual(['33330']);
    expect(comparisonRows(list, { ...BASE, professional: false, institutional: false })).toEqual([]);
    expect(comparisonRows(list, { ...BASE, serviceCodes: ['22222'] }).map((r) => r.service.serviceCode)).toEqual(['22222']);

    const scoped = scopeRows(list, BASE);
    const shown = comparisonRows(list, BASE);
    const summary = comparisonSummary(scoped, shown, 3);
    expect(summary.totalSavings).toBe(1300); // 200 + 1,000 + 100
    expect(summary.overpaying).toBe(3);
    expect(summary.total).toBe(4);
    // claims-weighted: (10 x 20 + 100 x 7.142857 + 5 x 50) / 115 = 1164.2857 / 115 = 10.124
    expect(summary.avgOverpayment).toBeCloseTo(10.124, 3);
  });

  it('computes the dashboard KPIs and the top overpaid list', () => {
    const list = [service('1', 120, 100, 300), service('2', 90, 100, 100), service('3', 105, 100, 100)];
    const k = dashboardKpis(list);
    // (300 x 20 + 100 x -10 + 100 x 5) / 500 = 5500 / 500 = 11
    expect(k.averageOverpayment).toBeCloseTo(11, 9);
    expect(k.topService.serviceCode).toBe('1');
    expect(k.claimsAboveMarket).toBeCloseTo(66.667, 3); // 2 of 3
    expect(topOverpaid(list, 2).map((s) => s.serviceCode)).toEqual(['1', '3']);
  });
});
