/**
 * The pure per-unit rules of contract/rules/metrics.ts the worker applies (docs/methodology.md, Per comparison
 * unit, Rows that count): unit order, the billing-class chips, thin units, % of Medicare and the
 * claims of each class going to its main unit. Expected values worked out by hand in each case.
 */
import { describe, expect, it } from 'vitest';
import {
  claimsByUnit,
  compareUnits,
  effectiveMinProviders,
  medicarePct,
  thinReason,
  unitPassesClassFilter,
  type ClaimsUnit,
} from '../../contract/rules/metrics';

const u = (billing_class: string, component: string, setting: string, reference_providers = 0): ClaimsUnit => ({
  billing_class,
  component,
  setting,
  reference_providers,
});

describe('unit order', () => {
  it('orders class (professional, institutional, both), then component (global, 26, TC), then setting (non-facility, facility)', () => {
    const units = [
      u('both', 'global', 'non-facility'),
      u('institutional', 'global', 'facility'),
      u('professional', 'TC', 'non-facility'),
      u('professional', 'global', 'facility'),
      u('professional', '26', 'facility'),
      u('professional', 'global', 'non-facility'),
    ];
    expect([...units].sort(compareUnits).map((x) => `${x.billing_class}/${x.component}/${x.setting}`)).toEqual([
      'professional/global/non-facility',
      'professional/global/facility',
      'professional/26/facility',
      'professional/TC/non-facility',
      'institutional/global/facility',
      'both/global/non-facility',
    ]);
  });
});

describe('billing-class chips', () => {
  it('Professional = professional and both units; Institutional = institutional and both; none = all', () => {
    const classes = ['professional', 'institutional', 'both'];
    expect(classes.filter((c) => unitPassesClassFilter('professional', c))).toEqual(['professional', 'both']);
    expect(classes.filter((c) => unitPassesClassFilter('institutional', c))).toEqual(['institutional', 'both']);
    expect(classes.filter((c) => unitPassesClassFilter('all', c))).toEqual(classes);
  });
});

describe('thin units', () => {
  it('needs min_providers behind the reference price and behind the competitor prices together', () => {
    expect(thinReason(2, 2, 2)).toBeNull();
    expect(thinReason(1, 5, 2)).toBe('reference price rests on 1 provider');
    expect(thinReason(4, 1, 2)).toBe('competitor prices rest on 1 provider together');
    expect(thinReason(1, 1, 2)).toBe('reference price rests on 1 provider; competitor prices rest on 1 provider together');
    expect(thinReason(2, 2, 3)).toBe('reference price rests on 2 providers; competitor prices rest on 2 providers together');
    // A side without a price has nothing to doubt.
    expect(thinReason(null, 1, 2)).toBe('competitor prices rest on 1 provider together');
    expect(thinReason(3, null, 2)).toBeNull();
  });

  it('with a provider selection, the smaller of min_providers and the number selected', () => {
    expect(effectiveMinProviders(2)).toBe(2);
    expect(effectiveMinProviders(2, 1)).toBe(1);
    expect(effectiveMinProviders(2, 5)).toBe(2);
    expect(effectiveMinProviders(3, 2)).toBe(2);
    // One provider selected: a unit priced at it by both sides is not thin.
    expect(thinReason(1, 1, effectiveMinProviders(2, 1))).toBeNull();
  });
});

describe('% of Medicare', () => {
  it('is 100 x price / benchmark, none without one', () => {
    expect(medicarePct(150, 100)).toBe(150);
    expect(medicarePct(45, 90)).toBe(50);
    expect(medicarePct(null, 100)).toBeNull();
    expect(medicarePct(100, null)).toBeNull();
    expect(medicarePct(100, 0)).toBeNull();
  });
});

describe('claims to the main unit of each class', () => {
  it('gives a class its count at the unit with the most reference providers, ties global < 26 < TC', () => {
    const units = [
      u('professional', 'global', 'non-facility', 3),
      u('professional', '26', 'facility', 5),
      u('professional', 'TC', 'non-facility', 5),
      u('institutional', 'global', 'facility', 2),
      u('both', 'global', 'non-facility', 4),
    ];
    // professional: 26 and TC rest on 5 each, 26 first -> 100 there; institutional 40; the both unit
    // is not professional here (the code has a professional unit): 0.
    expect(claimsByUnit(units, { professional: 100, institutional: 40 })).toEqual([0, 100, 0, 40, 0]);
  });

  it('breaks a tie by setting, non-facility first', () => {
    const units = [u('professional', 'global', 'facility', 3), u('professional', 'global', 'non-facility', 3)];
    expect(claimsByUnit(units, { professional: 7, institutional: 9 })).toEqual([0, 7]);
  });

  it('gives the professional count to a both unit when the code has no professional unit', () => {
    const units = [u('institutional', 'global', 'facility', 1), u('both', 'global', 'non-facility', 2)];
    expect(claimsByUnit(units, { professional: 100, institutional: 40 })).toEqual([40, 100]);
    // A professional unit without a reference price does not count as one: the both unit (2) leads.
    const unpriced = [u('professional', 'global', 'non-facility', 0), u('both', 'global', 'facility', 2)];
    expect(claimsByUnit(unpriced, { professional: 30, institutional: 0 })).toEqual([0, 30]);
  });

  it('still names a main unit when no unit has a reference price, and gives 0 to a class without unit', () => {
    const units = [u('professional', '26', 'non-facility'), u('professional', 'global', 'facility')];
    expect(claimsByUnit(units, { professional: 12, institutional: 40 })).toEqual([0, 12]);
    expect(claimsByUnit([], { professional: 12, institutional: 40 })).toEqual([]);
  });
});
