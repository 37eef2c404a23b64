/**
 * The pure alert rules of contract/rules/alert-rules.ts per comparison unit (docs/methodology.md, Alerts): the
 * support each alert needs, the order (severity, dollar impact, |percent change|, region, code,
 * unit, type), the ids and the carry-over of acknowledgements made under the per-service ids.
 * Expected values by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  alertId,
  alertsOfLegacyId,
  compareRankedAlerts,
  evaluateAlerts,
  legacyAlertId,
  type AlertFigures,
  type AlertSubject,
  type RankedAlert,
} from '../../contract/rules/alert-rules';

const fig = (x: Partial<AlertFigures>): AlertFigures => ({
  referencePrice: null,
  marketAverage: null,
  variance: null,
  referenceProviders: 3,
  competitorProviders: 3,
  thin: false,
  ...x,
});

const subject = (x: Partial<AlertSubject>): AlertSubject => ({
  billingCode: '99213',
  billingClass: 'professional',
  component: 'global',
  setting: 'non-facility',
  serviceName: 'Office visit',
  region: 'All',
  snapshot: '2025-02',
  previousSnapshot: '2025-01',
  latest: fig({}),
  previous: fig({}),
  claimsVolume: 10,
  minProviders: 2,
  ...x,
});

const types = (r: RankedAlert[]): string[] => r.map((x) => `${x.alert.type}:${x.alert.severity}`);

describe('support', () => {
  // Reference 100 -> 120 (+20 %: medium spike); market 100 -> 115 (+15 %: medium shift); the latest
  // variance is given as 25 % (low outlier; the rules take the worker's figure as it is).
  const moving = subject({
    previous: fig({ referencePrice: 100, marketAverage: 100, variance: 0 }),
    latest: fig({ referencePrice: 120, marketAverage: 115, variance: 25 }),
  });

  it('raises the three alerts when every figure rests on enough providers', () => {
    const r = evaluateAlerts(moving);
    expect(types(r)).toEqual(['price_spike:medium', 'outlier:low', 'market_shift:medium']);
    // Dollar impacts x 10 claims: |120 - 100| = 20 -> 200; 120 - 115 = 5 -> 50; |115 - 100| = 15 -> 150.
    expect(r.map((x) => x.impact)).toEqual([200, 50, 150]);
    expect(r.map((x) => x.change)).toEqual([20, 25, 15]);
    expect(r[0]!.alert).toMatchObject({
      serviceCode: '99213', billingClass: 'professional', component: 'global', setting: 'non-facility',
      region: 'All', affectedValue: 120, marketValue: 115, createdAt: '2025-02-01',
    });
    expect(r[0]!.alert.description).toBe('Our price for 99213 (professional, non-facility) in all states rose +20.0% from $100 (2025-01) to $120 (2025-02).');
  });

  it('price_spike needs the reference price of both months on min_providers providers', () => {
    const thinBefore = { ...moving, previous: { ...moving.previous, referenceProviders: 1 } };
    expect(types(evaluateAlerts(thinBefore))).toEqual(['outlier:low', 'market_shift:medium']);
    const thinNow = { ...moving, latest: { ...moving.latest, referenceProviders: 1, thin: true } };
    // A thin unit: no outlier either.
    expect(types(evaluateAlerts(thinNow))).toEqual(['market_shift:medium']);
  });

  it('outlier needs a unit that is not thin', () => {
    const thin = { ...moving, latest: { ...moving.latest, thin: true } };
    expect(types(evaluateAlerts(thin))).toEqual(['price_spike:medium', 'market_shift:medium']);
  });

  it('market_shift needs the competitor prices of both months on min_providers providers together', () => {
    const before = { ...moving, previous: { ...moving.previous, competitorProviders: 1 } };
    expect(types(evaluateAlerts(before))).toEqual(['price_spike:medium', 'outlier:low']);
    const now = { ...moving, minProviders: 4 };
    // 3 providers everywhere < 4: no spike, no shift; the outlier follows the given thin flag.
    expect(types(evaluateAlerts(now))).toEqual(['outlier:low']);
  });

  it('compares against no month without a value', () => {
    const noPrevious = subject({ latest: fig({ referencePrice: 120, marketAverage: 115, variance: 4.3 }) });
    expect(evaluateAlerts(noPrevious)).toEqual([]);
  });
});

describe('order', () => {
  const ranked = (code: string, region: string, impact: number, change: number, severity: 'high' | 'low', unit: Partial<AlertSubject> = {}): RankedAlert => {
    const s = subject({ billingCode: code, region, ...unit });
    const alert = {
      id: alertId('outlier', code, s.billingClass, s.component, s.setting, region, '2025-02'), type: 'outlier' as const, severity,
      title: '', description: '', serviceCode: code, serviceName: code, billingClass: s.billingClass, component: s.component,
      setting: s.setting, region, affectedValue: 0, marketValue: null, createdAt: '2025-02-01', acknowledged: false,
      acknowledgedBy: null, acknowledgedAt: null,
    };
    return { alert, impact, change };
  };

  it('sorts by severity, dollar impact, |percent change|, region (All first), code, unit', () => {
    const list = [
      ranked('A1', 'CA', 500, 21, 'low'),
      ranked('A2', 'All', 100, 50, 'high'),
      ranked('A3', 'All', 900, 22, 'low'),
      ranked('A4', 'All', 500, 30, 'low'),
      ranked('A5', 'All', 500, 21, 'low'),
      ranked('A1', 'All', 500, 21, 'low'),
      ranked('A1', 'All', 500, 21, 'low', { component: '26', setting: 'facility' }),
      ranked('A1', 'All', 500, 21, 'low', { billingClass: 'institutional', setting: 'facility' }),
    ];
    expect(list.sort(compareRankedAlerts).map((x) => `${x.alert.serviceCode} ${x.alert.region} ${x.alert.billingClass}/${x.alert.component}`)).toEqual([
      'A2 All professional/global', // high first, whatever its impact
      'A3 All professional/global', // 900
      'A4 All professional/global', // 500, 30 %
      'A1 All professional/global', // 500, 21 %, All: A1 before A5; then the unit order
      'A1 All professional/26',
      'A1 All institutional/global',
      'A5 All professional/global',
      'A1 CA professional/global', // a state after All
    ]);
  });
});

describe('ids and acknowledgements made per service', () => {
  it('hashes the unit into the id, stably', () => {
    const id = alertId('price_spike', '70450', 'institutional', 'global', 'facility', 'All', '2025-02');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(alertId('price_spike', '70450', 'institutional', 'global', 'facility', 'All', '2025-02')).toBe(id);
    expect(alertId('price_spike', '70450', 'professional', 'global', 'facility', 'All', '2025-02')).not.toBe(id);
    expect(alertId('price_spike', '70450', 'institutional', 'global', 'facility', 'All', '2025-03')).not.toBe(id);
  });

  it('keeps the per-service id of the previous scheme (FNV-1a of type|code|region|snapshot)', () => {
    // Values of the previous contract/rules/alert-rules.ts alertId(type, code, region, snapshot).
    expect(legacyAlertId('price_spike', '70450', 'All', '2025-02')).toBe('e4883fa23044c2cc');
    expect(legacyAlertId('outlier', '99213', 'CA', '2025-02')).toBe('4a064c2e1878cc81');
  });

  it('maps a per-service id to every alert of the same type, code, region and snapshot', () => {
    const spike = (unit: Partial<AlertSubject>, region = 'All') =>
      evaluateAlerts(subject({
        billingCode: '70450', region, ...unit,
        previous: fig({ referencePrice: 100, marketAverage: 100, variance: 0 }),
        latest: fig({ referencePrice: 130, marketAverage: 125, variance: 4 }),
      })).map((x) => x.alert);
    const alerts = [
      ...spike({ billingClass: 'institutional', setting: 'facility' }),
      ...spike({ component: '26', setting: 'facility' }),
      ...spike({}, 'CA'),
    ];
    // Each gives a price_spike (+30 %) and a market_shift (+25 %).
    expect(alerts).toHaveLength(6);
    const mapped = alertsOfLegacyId('e4883fa23044c2cc', alerts);
    expect(mapped.map((a) => [a.type, a.region, a.billingClass, a.component])).toEqual([
      ['price_spike', 'All', 'institutional', 'global'],
      ['price_spike', 'All', 'professional', '26'],
    ]);
    expect(alertsOfLegacyId(legacyAlertId('market_shift', '70450', 'CA', '2025-02'), alerts).map((a) => [a.type, a.region])).toEqual([['market_shift', 'CA']]);
    expect(alertsOfLegacyId(legacyAlertId('price_spike', '70450', 'All', '2025-01'), alerts)).toEqual([]);
  });
});
