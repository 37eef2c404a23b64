/**
 * The live dashboard's alerts, docs/screens.md (Live dashboard) and docs/methodology.md (Alerts): `GET /api/alerts`
 * through the one /api client (src/api/client.ts), 'Loading alerts...', the error ('Failed to load alerts.' or the
 * server's message) or 'No alerts found.'; acknowledging one alert or all open ones (PUT), after
 * which the list shows who acknowledged and when.
 */
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { Alert } from '../../../contract/api';
import { formatCount } from '../../../contract/format';
import { apiCall, errorMessage } from '../../api/client';
import { AlertsList } from '../alerts/AlertsList';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; alerts: Alert[] };

/** The error text of a failed load: the server's message, else the default. */
export function alertsError(message: string): string {
  return message && message !== 'Request failed' ? message : 'Failed to load alerts.';
}

export function LiveAlerts(): ReactElement {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    apiCall('GET /api/alerts', {}, { signal: controller.signal }).then(
      (alerts) => setLoad({ status: 'ready', alerts }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'error', message: alertsError(errorMessage(error)) });
      },
    );
    return () => controller.abort();
  }, []);

  const acknowledge = useCallback(async (id: string) => {
    setPending((p) => new Set(p).add(id));
    try {
      const updated = await apiCall('PUT /api/alerts/{id}/acknowledge', { id });
      setActionError('');
      setLoad((l) => (l.status === 'ready' ? { status: 'ready', alerts: l.alerts.map((a) => (a.id === id ? updated : a)) } : l));
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
      setLoad({ status: 'ready', alerts });
    } catch (error) {
      setActionError(`Could not acknowledge the alerts: ${errorMessage(error)}`);
    }
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
