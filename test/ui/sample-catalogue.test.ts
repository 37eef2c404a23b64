// The fixed sample catalogue, docs/screens.md (Entities, Constants): counts, categories, insurers, trend months.
import { describe, expect, it } from 'vitest';
import { overpaymentLevel } from '../../src/components/map/overpayment-level';
import { OVERPAYMENT_TREND, REGIONAL_OVERPAYMENT } from '../../src/sample/data/dashboard';
import { DEFAULT_COMPARISON_INSURERS, SAMPLE_INSURERS } from '../../src/sample/data/insurers';
import { AVAILABILITY_TREND, heatOpacity } from '../../src/sample/data/old-dashboard';
import { OVERVIEW_SUMMARY } from '../../src/sample/data/overview';
import { SAMPLE_PROVIDERS } from '../../src/sample/data/providers';
import { SAMPLE_SERVICES } from '../../src/sample/data/services';

describe('sample catalogue', () => {
  it('has 5 named services plus 135 generated ones, by category as the product screens count them', () => {
    expect(SAMPLE_SERVICES).toHaveLength(140);
    expect(SAMPLE_SERVICES.slice(0, 5).map((s) => s.serviceCode)).toEqual(['99203', '70551', '45378', '71020', '85025']);
    const generated = SAMPLE_SERVICES.slice(5);
    const count = (c: string) => generated.filter((s) => s.category === c).length;
    expect([count('Cardiac'), count('Laboratory'), count('Surgical'), count('Radiology'), count('Office Visit'), count('Emergency')])
      .toEqual([25, 30, 35, 20, 15, 10]);
    expect(new Set(SAMPLE_SERVICES.map((s) => s.serviceCode)).size).toBe(140);
    expect(new Set(SAMPLE_SERVICES.map((s) => s.serviceName)).size).toBe(140);
  });

  it('computes the market average and variance of a named service', () => {
    const s = SAMPLE_SERVICES[0]!;
    // (142 + 151 + 139 + 147 + 136 + 155 + 128 + 133 + 140) / 9 = 1271 / 9 = 141.22
    expect(s.marketAverage).toBe(141.22);
    // (168 - 141.22) / 141.22 = 0.18963 -> 19.0 %
    expect(s.anthemVariance).toBe(19);
  });

  it('keeps every variance inside the top-10 chart axis (0-30 %) where positive', () => {
    expect(Math.max(...SAMPLE_SERVICES.map((s) => s.anthemVariance))).toBeLessThan(30);
  });

  it('has 118 providers: 10 insurers, 60 hospitals, 48 clinics, with unique names', () => {
    expect(SAMPLE_PROVIDERS).toHaveLength(118);
    const types = ['insurer', 'hospital', 'clinic'].map((t) => SAMPLE_PROVIDERS.filter((p) => p.type === t).length);
    expect(types).toEqual([10, 60, 48]);
    expect(new Set(SAMPLE_PROVIDERS.map((p) => p.name)).size).toBe(118);
  });

  it('has the ten insurer ids with market shares and the default comparison insurers', () => {
    expect(SAMPLE_INSURERS.map((i) => i.id)).toEqual([
      'anthem', 'unitedhealth', 'kaiser', 'aetna', 'cigna', 'humana', 'bcbs', 'molina', 'centene', 'healthnet',
    ]);
    expect(SAMPLE_INSURERS.every((i) => i.marketShare > 0)).toBe(true);
    expect(DEFAULT_COMPARISON_INSURERS).toEqual(['unitedhealth', 'kaiser', 'aetna']);
  });

  it('lists the trend months as the screens do: Sep but no Aug, and the misspelled Dez, inside 8-20 %', () => {
    const months = OVERPAYMENT_TREND.map((p) => p.month);
    expect(months[0]).toBe('Jan');
    expect(months).toContain('Sep');
    expect(months).not.toContain('Aug');
    expect(months).toContain('Dez');
    expect(OVERPAYMENT_TREND.every((p) => p.value >= 8 && p.value <= 20)).toBe(true);
  });

  it('ends the availability trend at Jan 2024 with 2,100 files and 95.5 % compliance, from Jul 2022', () => {
    expect(AVAILABILITY_TREND[0]?.month).toBe('Jul 2022');
    expect(AVAILABILITY_TREND.at(-1)).toEqual({ month: 'Jan 2024', files: 2100, compliance: 95.5 });
  });

  it('has the overview figures', () => {
    expect([OVERVIEW_SUMMARY.totalServices, OVERVIEW_SUMMARY.totalProviders, OVERVIEW_SUMMARY.averageNegotiatedRate,
      OVERVIEW_SUMMARY.priceRangeSpread]).toEqual([1247, 3856, 2847.5, 89.2]);
    expect(OVERVIEW_SUMMARY.regionalVariation.map((r) => r.state)).toEqual(['CA', 'NY', 'TX', 'FL', 'IL']);
  });

  it('colours regions by the thresholds above 17, 15, 13, else', () => {
    expect([17.01, 17, 15.01, 15, 13.01, 13, undefined].map(overpaymentLevel)).toEqual([3, 2, 2, 1, 1, 0, 0]);
    expect(REGIONAL_OVERPAYMENT.map((r) => overpaymentLevel(r.anthemAvgOverpayment))).toEqual([3, 2, 1, 1, 0]);
  });

  it('never lets a heat-grid tile fall below opacity 0.2', () => {
    expect(heatOpacity(10, 312)).toBe(0.2); // 10 / 312 = 0.032 < 0.2
    expect(heatOpacity(156, 312)).toBe(0.5);
    expect(heatOpacity(5, 0)).toBe(0.2);
  });
});
