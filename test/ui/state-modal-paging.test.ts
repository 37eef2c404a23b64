/** The live state modal's paging rules (src/live/components/state-modal-paging.ts). */
import { describe, expect, it } from 'vitest';
import type { RegionalServicesPage } from '../../contract/api';
import {
  INITIAL_STATE_SORT,
  MAX_SHOWN_UNITS,
  STATE_UNITS_PAGE_SIZE,
  nextStateLimit,
  stateUnitsRequest,
  stateUnitsText,
} from '../../src/live/components/state-modal-paging';

const counts = (total: number, matched = total): RegionalServicesPage => ({ total, matched, thin: 0, items: [] });

describe('state modal paging', () => {
  it('asks from the first unit, in the column sort, with the search trimmed', () => {
    expect(stateUnitsRequest('CA', { q: '', sort: INITIAL_STATE_SORT, limit: STATE_UNITS_PAGE_SIZE }, {})).toEqual({
      state: 'CA', sort: 'overpayment_pct', direction: 'desc', offset: 0, limit: 50,
    });
    expect(stateUnitsRequest('NY', { q: '  992 ', sort: { key: 'marketAvg', direction: 'asc' }, limit: 150 }, { shared_providers: true })).toEqual({
      state: 'NY', shared_providers: true, q: '992', sort: 'market_avg', direction: 'asc', offset: 0, limit: 150,
    });
    expect(stateUnitsRequest('NY', { q: '', sort: { key: 'service', direction: 'asc' }, limit: 999 }, {}).limit).toBe(MAX_SHOWN_UNITS);
  });

  it("offers 'Show more' until every match or MAX_SHOWN_UNITS are shown", () => {
    expect(nextStateLimit(50, 2104)).toBe(100);
    expect(nextStateLimit(150, 2104)).toBe(200);
    expect(nextStateLimit(200, 2104)).toBeNull();
    expect(nextStateLimit(12, 12)).toBeNull();
    expect(nextStateLimit(50, 60)).toBe(100);
  });

  it('counts the units shown, of the state or of a search', () => {
    expect(stateUnitsText(counts(2104), 50, '', 'CA')).toBe('Showing 50 of 2,104 units');
    expect(stateUnitsText(counts(2104, 3), 3, ' 9921 ', 'CA')).toBe('Showing 3 of 3 units matching "9921" (2,104 in CA)');
    expect(stateUnitsText(counts(2104), 200, '', 'CA')).toBe('Showing 200 of 2,104 units. Search or sort to reach the others.');
    expect(stateUnitsText(counts(4), 4, '', 'CA')).toBe('Showing 4 of 4 units');
    expect(stateUnitsText(counts(2104, 0), 0, 'xyz', 'CA')).toBe('No unit matches "xyz" (2,104 in CA)');
  });
});
