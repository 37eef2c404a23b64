/**
 * The live alerts panel's paging, as pure functions over what the panel shows (docs/screens.md,
 * Live dashboard, Alerts): the first page of `GET /api/alerts-page`, further pages appended by
 * 'Show more' up to MAX_SHOWN_ALERTS rows, one acknowledged alert replaced in place, and the first
 * page of the full list that `PUT /api/alerts/acknowledge-all` returns. The panel receives and
 * renders only these rows, so a dataset with thousands of alerts costs the page one page at a time.
 */
import { ALERTS_PAGE_DEFAULT_LIMIT, type Alert, type AlertsPage } from '../../../contract/api';
import { formatCount } from '../../../contract/rules/format';

/** Rows per request: the first page and every 'Show more'. */
export const ALERTS_PAGE_SIZE = ALERTS_PAGE_DEFAULT_LIMIT;

/** The most rows the panel renders; past them 'Show more' goes away. */
export const MAX_SHOWN_ALERTS = 200;

/** What the panel shows: the rows loaded, in the list's order, and the whole list's counts. */
export interface ShownAlerts {
  /** Alerts in the whole list. */
  total: number;
  /** Alerts of the whole list not acknowledged. */
  open: number;
  /** The rows shown: the list's first `items.length` alerts. */
  items: readonly Alert[];
}

/** The shown state of a first page (its items capped at MAX_SHOWN_ALERTS). */
export function shownOf(page: AlertsPage): ShownAlerts {
  return { total: page.total, open: page.open, items: page.items.slice(0, MAX_SHOWN_ALERTS) };
}

/**
 * The `offset` and `limit` of the next 'Show more' request, or null when there is nothing more to
 * show: every alert is shown, or MAX_SHOWN_ALERTS rows are.
 */
export function nextPageRequest(shown: ShownAlerts): { offset: number; limit: number } | null {
  const offset = shown.items.length;
  const room = MAX_SHOWN_ALERTS - offset;
  if (offset >= shown.total || room <= 0) return null;
  return { offset, limit: Math.min(ALERTS_PAGE_SIZE, room) };
}

/**
 * `shown` with the page fetched at `nextPageRequest(shown).offset` appended: rows already shown are
 * kept (they may carry an acknowledgement made since), an id already shown is not repeated, the
 * rows stop at MAX_SHOWN_ALERTS, and the counts are the newer page's.
 */
export function appendPage(shown: ShownAlerts, page: AlertsPage): ShownAlerts {
  const seen = new Set(shown.items.map((a) => a.id));
  const added = page.items.filter((a) => !seen.has(a.id));
  return { total: page.total, open: page.open, items: [...shown.items, ...added].slice(0, MAX_SHOWN_ALERTS) };
}

/**
 * `shown` after `PUT /api/alerts/{id}/acknowledge` answered `updated`: that row replaced in place,
 * and one fewer open when it was open before. A row not shown changes nothing.
 */
export function acknowledgeShown(shown: ShownAlerts, updated: Alert): ShownAlerts {
  const i = shown.items.findIndex((a) => a.id === updated.id);
  if (i < 0) return shown;
  const closed = !shown.items[i]!.acknowledged && updated.acknowledged;
  const items = shown.items.map((a, j) => (j === i ? updated : a));
  return { total: shown.total, open: closed ? Math.max(0, shown.open - 1) : shown.open, items };
}

/**
 * The first page of a full list (`PUT /api/alerts/acknowledge-all` returns every alert): its
 * counts, and its first ALERTS_PAGE_SIZE rows.
 */
export function firstPageOf(alerts: readonly Alert[]): ShownAlerts {
  return {
    total: alerts.length,
    open: alerts.reduce((n, a) => (a.acknowledged ? n : n + 1), 0),
    items: alerts.slice(0, ALERTS_PAGE_SIZE),
  };
}

/** 'Showing 20 of 1,865 alerts' ('alert' when the list has one). */
export function showingText(shown: ShownAlerts): string {
  return `Showing ${formatCount(shown.items.length)} of ${formatCount(shown.total)} ${shown.total === 1 ? 'alert' : 'alerts'}`;
}
