/**
 * The live dashboard's alerts, docs/screens.md (Live dashboard) and docs/methodology.md (Alerts), through the one
 * /api client (src/api/client.ts): the first page of `GET /api/alerts-page` (20 alerts), 'Showing n of m alerts' and
 * 'Show more' appending the next page up to 200 rows (paging rules in ./alerts-paging.ts); 'Loading alerts...', the
 * error ('Failed to load alerts.' or the server's message) or 'No alerts found.'; acknowledging one alert (the row is
 * replaced in place) or all open ones (the panel shows the first page of the list the call returns), after which a row
 * shows who acknowledged and when.
 */
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { formatCount } from '../../../contract/rules/format';
import { apiCall, errorMessage } from '../../api/client';
import { AlertsList } from '../../components/alerts/AlertsList';
import {
  ALERTS_PAGE_SIZE,
  acknowledgeShown,
  appendPage,
  firstPageOf,
  nextPageRequest,
  shownOf,
  showingText,
  type ShownAlerts,
} from './alerts-paging';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; shown: ShownAlerts };

/** The error text of a failed load: the server's message, else the default. */
export function alertsError(message: string): string {
  return message && message !== 'Request failed' ? message : 'Failed to load alerts.';
}

/** The alerts panel of /live-dashboard; takes no props (the alerts are the reference insurer's, over every provider). */
export function LiveAlerts(): ReactElement {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [loadingMore, setLoadingMore] = useState(false);
  const [actionError, setActionError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    apiCall('GET /api/alerts-page', { offset: 0, limit: ALERTS_PAGE_SIZE }, { signal: controller.signal }).then(
      (page) => setLoad({ status: 'ready', shown: shownOf(page) }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'error', message: alertsError(errorMessage(error)) });
      },
    );
    return () => controller.abort();
  }, []);

  const showMore = useCallback(async (shown: ShownAlerts) => {
    const next = nextPageRequest(shown);
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await apiCall('GET /api/alerts-page', next);
      setActionError('');
      // Appends to the rows shown now, which may carry an acknowledgement made while the page loaded.
      setLoad((l) => (l.status === 'ready' && l.shown.items.length === next.offset ? { status: 'ready', shown: appendPage(l.shown, page) } : l));
    } catch (error) {
      setActionError(`Could not load more alerts: ${errorMessage(error)}`);
    } finally {
      setLoadingMore(false);
    }
  }, []);

  const acknowledge = useCallback(async (id: string) => {
    setPending((p) => new Set(p).add(id));
    try {
      const updated = await apiCall('PUT /api/alerts/{id}/acknowledge', { id });
      setActionError('');
      setLoad((l) => (l.status === 'ready' ? { status: 'ready', shown: acknowledgeShown(l.shown, updated) } : l));
    } catch (error) {
      setActionError(`Could not acknowledge the alert: ${errorMessage(error)}`);
    } finally {
      setPending((p) => {
        const next = new Set(p);
        next.delete(id);
        return next;
      });
    }
  }, []);

  const acknowledgeAll = useCallback(async () => {
    try {
      const { alerts } = await apiCall('PUT /api/alerts/acknowledge-all', {});
      setActionError('');
      setLoad({ status: 'ready', shown: firstPageOf(alerts) });
    } catch (error) {
      setActionError(`Could not acknowledge the alerts: ${errorMessage(error)}`);
    }
  }, []);

  const shown = load.status === 'ready' ? load.shown : null;
  const more = shown ? nextPageRequest(shown) : null;
  return (
    <div className="section panel live-alerts">
      <div className="section__head live-bar">
        <div>
          <h2>Alerts</h2>
          <p>{shown ? `${formatCount(shown.open)} open of ${formatCount(shown.total)}` : 'Latest snapshot against the one before'}</p>
        </div>
        {shown && shown.open > 0 && (
          <button type="button" className="button live-small" onClick={() => void acknowledgeAll()}>Acknowledge all</button>
        )}
      </div>
      {load.status === 'loading' && <p className="live-status" role="status">Loading alerts...</p>}
      {load.status === 'error' && <p className="live-status live-error" role="alert">{load.message}</p>}
      {shown && shown.total === 0 && <p className="live-status">No alerts found.</p>}
      {actionError && <p className="live-error" role="alert">{actionError}</p>}
      {shown && shown.items.length > 0 && (
        <>
          <div className="live-alerts__scroll">
            <AlertsList alerts={shown.items} onAcknowledge={(id) => void acknowledge(id)} pending={pending} />
          </div>
          <div className="live-alerts__more">
            <p className="live-alerts__count">{showingText(shown)}</p>
            {more && (
              <button type="button" className="button live-small" disabled={loadingMore} onClick={() => void showMore(shown)}>
                {loadingMore ? 'Loading...' : 'Show more'}
              </button>
            )}
          </div>
        </>
      )}
    </div>
  );
}
