/**
 * The live alerts panel's paging (src/live/components/alerts-paging.ts; docs/screens.md, Live
 * dashboard): a first page of 20, 'Show more' appending 20 at a time up to 200 rows, one
 * acknowledgement replacing its row in place, and 'Acknowledge all' back to the first page. The
 * end-to-end fixture has 5 alerts, too few to page, so the paging is checked here against a stand-in
 * for `GET /api/alerts-page` (the slice and counts of workers/api/alerts.ts, checked against the
 * worker in test/worker/alerts-page.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Alert, AlertsPage } from '../../contract/api';
import {
  ALERTS_PAGE_SIZE, MAX_SHOWN_ALERTS, acknowledgeShown, appendPage, firstPageOf, nextPageRequest, shownOf, showingText, type ShownAlerts,
} from '../../src/live/components/alerts-paging';

const alert = (i: number, acknowledged = false): Alert => ({
  id: `a${i}`, type: 'outlier', severity: 'low', title: `Outlier ${i}`, description: '', serviceCode: '99213', serviceName: 'Office visit',
  billingClass: 'professional', component: 'global', setting: 'non-facility', region: 'All', affectedValue: 120, marketValue: 100,
  createdAt: '2025-02-01', acknowledged, acknowledgedBy: acknowledged ? 'Dana' : null, acknowledgedAt: acknowledged ? '2025-02-15T09:00:00.000Z' : null,
});

/** `n` alerts, every 7th acknowledged. */
const list = (n: number): Alert[] => Array.from({ length: n }, (_, i) => alert(i, i % 7 === 0));

/** What `GET /api/alerts-page` answers for `all` (workers/api/alerts.ts alertsPage). */
const serve = (all: readonly Alert[], offset = 0, limit = ALERTS_PAGE_SIZE): AlertsPage => ({
  total: all.length,
  open: all.filter((a) => !a.acknowledged).length,
  items: all.slice(offset, offset + limit),
});

/** Clicks 'Show more' while it shows; returns the state after each page. */
function clickThrough(all: readonly Alert[]): ShownAlerts[] {
  const states = [shownOf(serve(all))];
  for (let next = nextPageRequest(states.at(-1)!); next; next = nextPageRequest(states.at(-1)!)) {
    states.push(appendPage(states.at(-1)!, serve(all, next.offset, next.limit)));
    expect(states.length).toBeLessThan(50);
  }
  return states;
}

describe('the alerts panel pages', () => {
  it('shows 20 at first and the whole count', () => {
    const all = list(1865);
    const first = shownOf(serve(all));
    expect(first.items).toEqual(all.slice(0, 20));
    expect([first.total, first.open]).toEqual([1865, 1865 - 267]);
    expect(showingText(first)).toBe('Showing 20 of 1,865 alerts');
    expect(nextPageRequest(first)).toEqual({ offset: 20, limit: 20 });
  });

  it("appends 20 per 'Show more', in the list's order, and stops at 200 rows", () => {
    const all = list(1865);
    const states = clickThrough(all);
    expect(states.map((s) => s.items.length)).toEqual([20, 40, 60, 80, 100, 120, 140, 160, 180, 200]);
    expect(states.at(-1)!.items).toEqual(all.slice(0, MAX_SHOWN_ALERTS));
    expect(showingText(states.at(-1)!)).toBe('Showing 200 of 1,865 alerts');
    expect(nextPageRequest(states.at(-1)!)).toBeNull();
  });

  it('asks for no more than is left under the 200 rows', () => {
    const all = list(1865);
    const at190: ShownAlerts = { total: 1865, open: 1, items: all.slice(0, 190) };
    expect(nextPageRequest(at190)).toEqual({ offset: 190, limit: 10 });
    // A page longer than the room left is cut at 200 rows.
    expect(appendPage(at190, serve(all, 190, 20)).items).toHaveLength(MAX_SHOWN_ALERTS);
  });

  it('stops when every alert is shown, short of 200', () => {
    const all = list(45);
    const states = clickThrough(all);
    expect(states.map((s) => s.items.length)).toEqual([20, 40, 45]);
    expect(states.at(-1)!.items).toEqual(all);
    expect(showingText(states.at(-1)!)).toBe('Showing 45 of 45 alerts');
    expect(nextPageRequest(shownOf(serve(list(5))))).toBeNull();
    expect(nextPageRequest(shownOf(serve(list(20))))).toBeNull();
    expect(nextPageRequest(shownOf(serve([])))).toBeNull();
    expect(showingText(shownOf(serve(list(1))))).toBe('Showing 1 of 1 alert');
  });

  it('keeps the rows shown and takes the newer counts when a page comes after an acknowledgement', () => {
    const all = list(30);
    const first = shownOf(serve(all));
    const acked = { ...all[3]!, acknowledged: true, acknowledgedBy: 'Pat' };
    const mid = acknowledgeShown(first, acked);
    const later = all.map((a) => (a.id === acked.id ? acked : a));
    // The next page overlaps the rows shown by one (the list is the same; the offset was computed before): no repeat.
    const next = appendPage(mid, serve(later, 19, 20));
    expect(next.items.map((a) => a.id)).toEqual(all.map((a) => a.id));
    expect(next.items[3]).toEqual(acked);
    expect([next.total, next.open]).toEqual([30, later.filter((a) => !a.acknowledged).length]);
  });
});

describe('acknowledging', () => {
  it('replaces the one row in place and counts one fewer open, once', () => {
    const all = list(60);
    const shown = appendPage(shownOf(serve(all)), serve(all, 20, 20));
    const target = shown.items[25]!;
    expect(target.acknowledged).toBe(false);
    const updated = { ...target, acknowledged: true, acknowledgedBy: 'Dana Analyst', acknowledgedAt: '2025-03-01T10:00:00.000Z' };
    const after = acknowledgeShown(shown, updated);
    expect(after.items).toHaveLength(40);
    expect(after.items[25]).toEqual(updated);
    expect(after.items.filter((_, i) => i !== 25)).toEqual(shown.items.filter((_, i) => i !== 25));
    expect([after.total, after.open]).toEqual([shown.total, shown.open - 1]);
    // Acknowledged again (the server keeps the first who and when): no second decrement.
    expect(acknowledgeShown(after, updated).open).toBe(shown.open - 1);
    // A row not shown changes nothing.
    expect(acknowledgeShown(after, { ...all[59]!, acknowledged: true })).toBe(after);
  });

  it("'Acknowledge all' shows the first page of the list it returns, whatever was shown", () => {
    const every = list(250).map((a) => ({ ...a, acknowledged: true, acknowledgedBy: a.acknowledgedBy ?? 'unknown user' }));
    const after = firstPageOf(every);
    expect(after.items).toEqual(every.slice(0, ALERTS_PAGE_SIZE));
    expect([after.total, after.open]).toEqual([250, 0]);
    expect(nextPageRequest(after)).toEqual({ offset: 20, limit: 20 });
    expect(firstPageOf(list(8))).toEqual({ total: 8, open: 6, items: list(8) });
  });
});
