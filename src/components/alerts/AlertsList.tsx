/**
 * The alerts list (product-spec §2 Dashboard content): per alert a severity dot (high red,
 * medium yellow, low blue) with its name for screen readers, the title, region, service name,
 * description, date and an 'Acknowledged' badge. Loading, error and empty states are the
 * caller's (the live version shows 'Loading alerts...', an error or 'No alerts found.').
 */
import type { ReactElement } from 'react';
import type { AlertSeverity } from '../../sample-data/alerts';
import './AlertsList.css';

/** What the list shows of an alert (product-spec §3 Alert). */
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
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Jan 14, 2024' (UTC, so every viewer sees the same date); the raw text when not a date. */
export function formatAlertDate(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dateFormat.format(t);
}

export function AlertsList({ alerts }: { alerts: readonly AlertItem[] }): ReactElement {
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
          </div>
        </li>
      ))}
    </ul>
  );
}
