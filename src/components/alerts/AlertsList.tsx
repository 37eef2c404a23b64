/**
 * The alerts list, docs/screens.md (Shared components): per alert a severity dot (high red,
 * medium yellow, low blue) with its name for screen readers, the title, region, service name,
 * description, date and an 'Acknowledged' badge. Loading, error and empty states are the
 * caller's (the live version shows 'Loading alerts...', an error or 'No alerts found.').
 */
import type { ReactElement } from 'react';
import type { AlertSeverity } from '../../../contract/api';
import './AlertsList.css';

/** What the list shows of an alert (contract/rules/alert-rules.ts Alert). */
export interface AlertItem {
  id: string;
  severity: AlertSeverity;
  title: string;
  region: string;
  serviceName: string;
  description: string;
  /** ISO date-time. */
  createdAt: string;
  acknowledged: boolean;
  /** Who acknowledged it (live); shown with the badge when given. */
  acknowledgedBy?: string | null;
  /** When it was acknowledged, ISO 8601 (live). */
  acknowledgedAt?: string | null;
}

/** Optional live behaviour of the list: an 'Acknowledge' button per open alert. */
export interface AlertsListActions {
  onAcknowledge?(id: string): void;
  /** Alerts whose acknowledgement is under way (their button is disabled). */
  pending?: ReadonlySet<string>;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Jan 14, 2024' (UTC, so every viewer sees the same date); the raw text when not a date. */
export function formatAlertDate(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dateFormat.format(t);
}

export function AlertsList({ alerts, onAcknowledge, pending }: { alerts: readonly AlertItem[] } & AlertsListActions): ReactElement {
  return (
    <ul className="alerts-list">
      {alerts.map((a) => (
        <li key={a.id} className="alerts-list__item">
          <span className={`alerts-list__dot alerts-list__dot--${a.severity}`} aria-hidden="true" />
          <div className="alerts-list__body">
            <div className="alerts-list__top">
              <h3 className="alerts-list__title">
                <span className="visually-hidden">{`${a.severity} severity: `}</span>
                {a.title}
              </h3>
              {a.acknowledged && <span className="alerts-list__badge">Acknowledged</span>}
            </div>
            <p className="alerts-list__meta">
              {a.region}
              <span aria-hidden="true"> · </span>
              {a.serviceName}
            </p>
            <p className="alerts-list__description">{a.description}</p>
            <p className="alerts-list__date"><time dateTime={a.createdAt}>{formatAlertDate(a.createdAt)}</time></p>
            {a.acknowledged && a.acknowledgedBy && (
              <p className="alerts-list__ack">
                {`Acknowledged by ${a.acknowledgedBy}`}
                {a.acknowledgedAt && <> on <time dateTime={a.acknowledgedAt}>{formatAlertDate(a.acknowledgedAt)}</time></>}
              </p>
            )}
            {onAcknowledge && !a.acknowledged && (
              <button type="button" className="button alerts-list__action" disabled={pending?.has(a.id)}
                aria-label={`Acknowledge ${a.title}`} onClick={() => onAcknowledge(a.id)}>
                Acknowledge
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
