/**
 * The dataset's `alerts` table (docs/dataset.md, Data dictionary): the alert list of
 * docs/methodology.md "Alerts", as the worker computes it (workers/api/alerts.ts rankAlerts), one
 * row per alert in the list's order (`rank`), without acknowledgements (they live in the browser).
 * The converter writes it with the first view (scripts/convert/build/output/alerts-table.ts); the worker reads it
 * instead of pricing every unit in every state for two months (a dataset without it still answers:
 * the worker computes the list). Pure: the row shape and its two conversions.
 */
import { ALERT_SEVERITIES, ALERT_TYPES, type Alert, type AlertSeverity, type AlertType } from '../rules/alert-rules';
import { UNIT_BILLING_CLASSES, type UnitBillingClass } from './dataset';
import type { Component, UnitSetting } from '../rules/medicare';
import { UNIT_COMPONENTS, UNIT_SETTINGS } from '../sql/unit-sql';

/** The file of the `alerts` table in a dataset directory. */
export const ALERTS_FILE = 'alerts.parquet';

/**
 * Rows per Parquet row group of `alerts` (DuckDB's vector size, so the writer cuts them exactly):
 * a page of alerts decodes the row groups that hold it, about 90 KB each, not the whole list.
 */
export const ALERTS_ROW_GROUP_ROWS = 2048;

/** The columns of `alerts`, in file order, with their DuckDB types. */
export const ALERTS_COLUMNS = [
  ['rank', 'INTEGER'],
  ['id', 'VARCHAR'],
  ['type', 'VARCHAR'],
  ['severity', 'VARCHAR'],
  ['title', 'VARCHAR'],
  ['description', 'VARCHAR'],
  ['billing_code', 'VARCHAR'],
  ['service_name', 'VARCHAR'],
  ['billing_class', 'VARCHAR'],
  ['component', 'VARCHAR'],
  ['setting', 'VARCHAR'],
  ['region', 'VARCHAR'],
  ['affected_value', 'DOUBLE'],
  ['market_value', 'DOUBLE'],
  ['created_at', 'VARCHAR'],
] as const;

/** A row of `alerts`: rank 0 is the list's first alert; USD in `affected_value` and `market_value`. */
export interface AlertRow {
  rank: number;
  id: string;
  type: string;
  severity: string;
  title: string;
  description: string;
  billing_code: string;
  service_name: string;
  billing_class: string;
  component: string;
  setting: string;
  region: string;
  affected_value: number;
  market_value: number | null;
  created_at: string;
}

/** The row of the alert at `rank` of the list (acknowledgement fields left out). Pure. */
export function alertRow(a: Alert, rank: number): AlertRow {
  return {
    rank,
    id: a.id,
    type: a.type,
    severity: a.severity,
    title: a.title,
    description: a.description,
    billing_code: a.serviceCode,
    service_name: a.serviceName,
    billing_class: a.billingClass,
    component: a.component,
    setting: a.setting,
    region: a.region,
    affected_value: a.affectedValue,
    market_value: a.marketValue,
    created_at: a.createdAt,
  };
}

/** Whether `value` is one of `allowed`. */
const oneOf = (allowed: readonly string[], value: string): boolean => allowed.includes(value);

/**
 * The unacknowledged Alert of a row of `alerts`.
 * @throws Error naming the row's rank and field when a value is not one the Alert entity allows
 *   (a table written by something else than the converter).
 */
export function alertFromRow(r: AlertRow): Alert {
  const bad = (field: string, value: unknown): Error => new Error(`alerts.parquet, rank ${r.rank}: ${field} ${JSON.stringify(value)} is not a value of the Alert entity`);
  if (!oneOf(ALERT_TYPES, r.type)) throw bad('type', r.type);
  if (!oneOf(ALERT_SEVERITIES, r.severity)) throw bad('severity', r.severity);
  if (!oneOf(UNIT_BILLING_CLASSES, r.billing_class)) throw bad('billing_class', r.billing_class);
  if (!oneOf(UNIT_COMPONENTS, r.component)) throw bad('component', r.component);
  if (!oneOf(UNIT_SETTINGS, r.setting)) throw bad('setting', r.setting);
  if (typeof r.affected_value !== 'number') throw bad('affected_value', r.affected_value);
  return {
    id: r.id,
    type: r.type as AlertType,
    severity: r.severity as AlertSeverity,
    title: r.title,
    description: r.description,
    serviceCode: r.billing_code,
    serviceName: r.service_name,
    billingClass: r.billing_class as UnitBillingClass,
    component: r.component as Component,
    setting: r.setting as UnitSetting,
    region: r.region,
    affectedValue: r.affected_value,
    marketValue: r.market_value,
    createdAt: r.created_at,
    acknowledged: false,
    acknowledgedBy: null,
    acknowledgedAt: null,
  };
}
