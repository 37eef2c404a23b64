/**
 * The live screens' handling of comparison units (docs/methodology.md, Per comparison unit, Dashboard
 * figures, Validation): the unit texts and row keys, the publishers' name beside the CMS name, the
 * validation marks with the dataset's bounds, the dashboard figures that leave thin units out and
 * name the unit, and the comparison CSV with one row per unit.
 */
import { describe, expect, it } from 'vitest';
import type { LiveInsurer, LiveServicePricingRecord } from '../../contract/api';
import { DEFAULT_VALIDATION } from '../../contract/files/dataset';
import { comparisonCsv } from '../../src/live/components/comparison-csv';
import { countedRecords, dashboardKpis, topOverpaid } from '../../src/live/components/dashboard-figures';
import {
  classLabel, compareCodeUnits, componentLabel, medicareBasisText, publishedNameToShow, settingLabel, unitRowKey, unitShortText, unitText,
  validationLabel,
} from '../../src/live/components/unit-format';

type Unit = Pick<LiveServicePricingRecord, 'billing_class' | 'component' | 'setting'>;

const rec = (code: string, variance: number | null, claims: number, unit: Partial<Unit> = {}, thin = false): LiveServicePricingRecord => ({
  service_code: code, billing_code_type: 'CPT', service_name: `Name ${code}`, published_name: null, category: 'Lab',
  billing_class: 'professional', component: 'global', setting: 'non-facility', ...unit,
  reference_price: 1, competitor_prices: { alpha: 1 }, market_average: 1, reference_variance: variance, overpayment: variance,
  claims_volume: claims, potential_savings: 0, anthem_price: 1, anthem_variance: variance,
  medicare_rate: 50, reference_medicare_pct: 150, competitor_medicare_pct: { alpha: 120 }, market_medicare_pct: 120,
  reference_providers: thin ? 1 : 3, competitor_providers: { alpha: 3 }, thin, thin_reason: thin ? 'reference price rests on 1 provider' : null, confidence: thin ? 'low' : 'high', confidence_reasons: [],
});

describe('unit texts', () => {
  it('labels class, component and setting, and keys a row by its whole unit', () => {
    expect([classLabel('professional'), classLabel('institutional'), classLabel('both')]).toEqual(['Professional', 'Institutional', 'Both']);
    expect([componentLabel('global'), componentLabel('26'), componentLabel('TC')]).toEqual(['Global', '26', 'TC']);
    expect([settingLabel('facility'), settingLabel('non-facility')]).toEqual(['Facility', 'Non-facility']);
    const u = { service_code: '70450', billing_class: 'professional', component: '26', setting: 'facility' };
    expect(unitText(u)).toBe('Professional · 26 · Facility');
    expect(unitShortText(u)).toBe('Prof · 26 · Fac');
    expect(unitRowKey(u)).toBe('70450|professional|26|facility');
    // Two units of one code never share a key.
    expect(unitRowKey({ ...u, component: 'TC' })).not.toBe(unitRowKey(u));
  });

  it('orders units by code, then class, component and setting', () => {
    const list = [
      { service_code: '70450', billing_class: 'institutional', component: 'global', setting: 'facility' },
      { service_code: '70450', billing_class: 'professional', component: 'TC', setting: 'non-facility' },
      { service_code: '70450', billing_class: 'professional', component: '26', setting: 'facility' },
      { service_code: '70450', billing_class: 'professional', component: '26', setting: 'non-facility' },
      { service_code: '10021', billing_class: 'both', component: 'global', setting: 'non-facility' },
    ];
    expect([...list].sort(compareCodeUnits).map((x) => unitRowKey(x))).toEqual([
      '10021|both|global|non-facility', '70450|professional|26|non-facility', '70450|professional|26|facility',
      '70450|professional|TC|non-facility', '70450|institutional|global|facility',
    ]);
  });

  it("shows the publishers' name only when it says something else", () => {
    expect(publishedNameToShow('Office o/p est low 20 min', 'Office or outpatient visit, established patient')).toBe('Office or outpatient visit, established patient');
    expect(publishedNameToShow('MRI brain w/o dye', 'MRI BRAIN W/O DYE')).toBeNull();
    expect(publishedNameToShow('X', null)).toBeNull();
    expect(publishedNameToShow('X', '  ')).toBeNull();
  });

  it('names the validation reasons with the bounds of the dataset, and the Medicare basis', () => {
    expect(validationLabel('below_benchmark')).toBe('Below 0.3x Medicare');
    expect(validationLabel('above_benchmark')).toBe('Above 30x Medicare');
    expect(validationLabel('source_not_dollars')).toBe('Source not in dollars');
    expect(validationLabel('outlier')).toBe('Outlier');
    expect(validationLabel('below_benchmark', { ...DEFAULT_VALIDATION, min_ratio: 0.5 })).toBe('Below 0.5x Medicare');
    expect([medicareBasisText('locality'), medicareBasisText('national'), medicareBasisText(null)]).toEqual(["at provider's locality", 'national', '']);
  });
});

describe('dashboard figures over comparison units', () => {
  it('count only units with a variance that are not thin', () => {
    const records = [
      rec('a', 10, 100), rec('b', -20, 300), rec('c', 90, 1000, {}, true), rec('d', null, 50),
      rec('a', 40, 0, { component: '26', setting: 'facility' }),
    ];
    expect(countedRecords(records).map((r) => unitRowKey(r))).toEqual(['a|professional|global|non-facility', 'b|professional|global|non-facility',
      'a|professional|26|facility']);
    const k = dashboardKpis(records);
    // (10 x 100 - 20 x 300 + 40 x 0) / 400 = -12.5; the thin c (90 %, 1,000 claims) counts nowhere.
    expect(k.averageOverpayment).toBe(-12.5);
    expect(k.top && unitRowKey(k.top)).toBe('a|professional|26|facility');
    expect(k.claimsAboveMarket).toBeCloseTo(200 / 3, 12);
    expect([k.withVariance, k.thinLeftOut]).toEqual([3, 1]);
  });

  it('ranks the Top 10 by variance, ties by code then unit, and never lists a thin unit', () => {
    const records = [
      rec('b', 5, 0), rec('a', 5, 0, { billing_class: 'institutional', setting: 'facility' }), rec('a', 5, 0), rec('z', 50, 0, {}, true),
    ];
    expect(topOverpaid(records).map((r) => unitRowKey(r))).toEqual([
      'a|professional|global|non-facility', 'a|institutional|global|facility', 'b|professional|global|non-facility',
    ]);
    expect(dashboardKpis([rec('z', 50, 0, {}, true)])).toMatchObject({ averageOverpayment: null, top: null, claimsAboveMarket: null, withVariance: 0, thinLeftOut: 1 });
  });
});

describe('comparison CSV', () => {
  it('writes one row per unit with its class, component, setting, % of Medicare and confidence', () => {
    const reference: LiveInsurer = { id: 'ref', name: 'Ref', group: 'Ref', shortName: 'Ref', marketShare: 40, isReference: true };
    const alpha: LiveInsurer = { id: 'alpha', name: 'Alpha', group: 'Alpha', shortName: 'Alpha', marketShare: 30, isReference: false };
    const { header, rows } = comparisonCsv([rec('70450', 10, 5, { component: '26', setting: 'facility' }, true)], reference, [alpha]);
    expect(header).toEqual(['billing_code', 'billing_code_type', 'billing_class', 'component', 'setting', 'service_name', 'published_name', 'category',
      'ref_price_usd', 'ref_medicare_pct', 'alpha_price_usd', 'alpha_medicare_pct', 'selected_avg_usd', 'selected_avg_medicare_pct',
      'market_band_p25_usd', 'market_band_p75_usd', 'overpayment_usd',
      'variance_percent', 'position', 'claims_volume', 'potential_savings_usd', 'medicare_rate_usd', 'thin', 'thin_reason', 'confidence', 'confidence_reasons']);
    expect(rows).toEqual([['70450', 'CPT', 'professional', '26', 'facility', 'Name 70450', null, 'Lab', 1, 150, 1, 120, 1, 120, null, null, 10, 10, 'above market', 5, 0, 50, true,
      'reference price rests on 1 provider', 'low', '']]);
  });
});
