/**
 * The live dashboard's alerts (product-spec §2, §7, §8; metrics.md Alerts): `GET /api/alerts`
 * through the alerts client, 'Loading alerts...', the error ('Failed to load alerts.' or the
 * server's message) or 'No alerts found.'; acknowledging one alert or all open ones (PUT), after
 * which the list shows who acknowledged and when.
 */
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { Alert } from '../../../contract/api';
import { formatCount } from '../../../contract/format';
import { acknowledgeAlert, acknowledgeAllAlerts, getAlerts } from '../../api/alerts-client';
import { AlertsList } from '../alerts/AlertsList';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; alerts: Alert[] };

/** The error text of a failed load (product-spec §8): the server's message, else the default. */
export function alertsError(message: string): string {
  return message && message !== 'Request failed' ? message : 'Failed to load alerts.';
}

export function LiveAlerts(): ReactElement {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    void getAlerts(controller.signal).then((r) => {
      if (controller.signal.aborted) return;
      setLoad(r.success && r.data ? { status: 'ready', alerts: r.data } : { status: 'error', message: alertsError(r.message) });
    });
    return () => controller.abort();
  }, []);

  const acknowledge = useCallback(async (id: string) => {
    setPending((p) => new Set(p).add(id));
    const r = await acknowledgeAlert(id);
    setPending((p) => {
      const next = new Set(p);
      next.delete(id);
      return next;
    });
    if (r.success && r.data) {
      const updated = r.data;
      setActionError('');
      setLoad((l) => (l.status === 'ready' ? { status: 'ready', alerts: l.alerts.map((a) => (a.id === id ? updated : a)) } : l));
    } else setActionError(`Could not acknowledge the alert: ${r.message}`);
  }, []);

  const acknowledgeAll = useCallback(async () => {
    const r = await acknowledgeAllAlerts();
    if (r.success && r.data) {
      setActionError('');
      setLoad({ status: 'ready', alerts: r.data.alerts });
    } else setActionError(`Could not acknowledge the alerts: ${r.message}`);
  }, []);

  const open = load.status === 'ready' ? load.alerts.filter((a) => !a.acknowledged).length : 0;
  return (
    <div className="section panel live-alerts">
      <div className="section__head live-bar">
        <div>
          <h2>Alerts</h2>
          <p>{load.status === 'ready' ? `${formatCount(open)} open of ${formatCount(load.alerts.length)}` : 'Latest snapshot against the one before'}</p>
        </div>
        {load.status === 'ready' && open > 0 && (
          <button type="button" className="button live-small" onClick={() => void acknowledgeAll()}>Acknowledge all</button>
        )}
      </div>
      {load.status === 'loading' && <p className="live-status" role="status">Loading alerts...</p>}
      {load.status === 'error' && <p className="live-status live-error" role="alert">{load.message}</p>}
      {load.status === 'ready' && load.alerts.length === 0 && <p className="live-status">No alerts found.</p>}
      {actionError && <p className="live-error" role="alert">{actionError}</p>}
      {load.status === 'ready' && load.alerts.length > 0 && (
        <div className="live-alerts__scroll">
          <AlertsList alerts={load.alerts} onAcknowledge={(id) => void acknowledge(id)} pending={pending} />
        </div>
      )}
    </div>
  );
}
