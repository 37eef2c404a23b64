/**
 * The drill-down from a median to the rate rows behind it (traceability): for each
 * insurer asked, `GET /api/rate-rows` with the screen's selection; a summary (median, rate rows,
 * providers, rows that failed validation) and the files the rows come from (reporting entity,
 * `last_updated_on`, snapshot, from the manifest's sources), then the rows of one insurer, each
 * with its '% of Medicare' (at the provider's locality or national) and its validation result,
 * exportable as CSV (all insurers). A price of a comparison unit passes the unit (class,
 * component, setting) in `selection`, so the rows are exactly the ones behind it.
 * With `meanLabel` (a market average) it also shows the mean of the medians (docs/methodology.md, Per
 * comparison unit: market_average = the arithmetic mean of the competitors' medians that exist).
 * With `selection.shared_providers` / `selection.billed` the rows are only those at shared providers /
 * at billing providers (docs/methodology.md, Per comparison unit), the rows behind the screen's prices with those options.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { BillingClassFilter, RateRowRecord, RateRowsResult } from '../../../contract/api';
import type { Confidence } from '../../../contract/rules/confidence';
import type { Component, UnitSetting } from '../../../contract/rules/medicare';
import { formatCount, formatUsd } from '../../../contract/rules/format';
import { RATE_ROW_PRICE_COLUMNS } from '../../../contract/files/price-columns';
import { apiCall, errorMessage } from '../../api/client';
import { Dialog } from '../../components/dialog/Dialog';
import { DataTable, type Column } from '../../components/table/DataTable';
import { ExportCsvButton } from './ExportCsvButton';
import { meanOfMedians } from './mean-of-medians';
import { MedicarePct, UnitBadges, ValidationMark } from './UnitParts';
import { medicareBasisText, unitText } from './unit-format';
import { useValidationSettings } from './use-validation-settings';
import { exportFileName } from '../url-state/live-comparison-state';
import '../../components/table/table.css';
import './live.css';

/** A price's confidence (contract/rules/confidence.ts) with what lowered it, read out, not only in a tooltip. */
function ConfidenceBadge({ confidence, reasons }: { confidence: Confidence | null; reasons: readonly string[] }): ReactElement {
  if (confidence === null) return <span className="muted">-</span>;
  return (
    <span className="live-confidence">
      <span className={`live-confidence__badge live-confidence__badge--${confidence}`}>{CONFIDENCE_LABEL[confidence]}</span>
      {reasons.length > 0 && <small className="live-sub">{reasons.join('; ')}</small>}
    </span>
  );
}

/** How a confidence reads on screen. */
export const CONFIDENCE_LABEL: Readonly<Record<Confidence, string>> = { high: 'High', medium: 'Medium', low: 'Low' };

export interface RateRowsSelection {
  /** A billing-class filter, or with `component` and `setting` the unit's own class (`both` too). */
  billing_class?: BillingClassFilter | 'both';
  /** The unit's component and setting: given together with a unit `billing_class`. */
  component?: Component;
  setting?: UnitSetting;
  state?: string;
  providers?: string[];
  snapshot?: string;
  /** Only the rows at shared providers (docs/methodology.md, Per comparison unit), as the screen's prices then are. */
  shared_providers?: boolean;
  /** Only the rows at billing providers of the code (docs/methodology.md, Where we bill it). */
  billed?: boolean;
}

export interface RateRowsDialogProps {
  serviceCode: string;
  serviceName: string;
  /** Insurers whose medians to trace, in display order; the first is shown first. */
  insurers: ReadonlyArray<{ id: string; name: string }>;
  selection: RateRowsSelection;
  onClose(): void;
  /** Names the mean of the medians, e.g. 'Market Avg in NY'; absent = no mean is shown. */
  meanLabel?: string;
}

/** Rows listed on screen per insurer; the CSV has them all. */
export const SHOWN_ROWS = 200;

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; results: RateRowsResult[] };

const usd2 = (x: number) => `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The price columns shown in the rows' table: those of contract/files/price-columns.ts with a screen
 * label (the billing class is in the row's unit badge, the expiration date in the CSV only).
 */
const PRICE_CELLS = RATE_ROW_PRICE_COLUMNS.filter((c) => c.label !== null);

/** The table column of price column `c`: a number as USD, right-aligned and sortable; text as it is. */
function priceCell(c: (typeof RATE_ROW_PRICE_COLUMNS)[number]): Column<RateRowRecord> {
  const header = c.label ?? c.api;
  if (c.kind === 'number') {
    return { key: c.name, header, cell: (r) => usd2(r[c.api] as number), sortValue: (r) => r[c.api] as number, align: 'right' };
  }
  return { key: c.name, header, cell: (r) => r[c.api] };
}

/** The unit of a selection, when it names one (all three of class, component and setting). */
function unitOf(selection: RateRowsSelection) {
  const { billing_class: cls, component, setting } = selection;
  return cls && cls !== 'all' && component && setting ? { billing_class: cls, component, setting } : null;
}

export function RateRowsDialog({ serviceCode, serviceName, insurers, selection, onClose, meanLabel }: RateRowsDialogProps): ReactElement {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [shown, setShown] = useState(insurers[0]?.id ?? '');
  const settings = useValidationSettings();
  const ids = insurers.map((i) => i.id).join(',');
  const selKey = JSON.stringify(selection);

  useEffect(() => {
    const controller = new AbortController();
    const sel = JSON.parse(selKey) as RateRowsSelection;
    setLoad({ status: 'loading' });
    Promise.all(ids.split(',').filter(Boolean).map((insurer_id) =>
      apiCall('GET /api/rate-rows', { service_id: serviceCode, insurer_id, ...sel }, { signal: controller.signal })))
      .then((results) => setLoad({ status: 'ready', results }),
        (e: unknown) => !controller.signal.aborted && setLoad({ status: 'error', message: errorMessage(e) }));
    return () => controller.abort();
  }, [serviceCode, ids, selKey]);

  const rowColumns: Column<RateRowRecord>[] = [
    { key: 'provider', header: 'Provider', cell: (r) => <>{r.provider_name}<small className="live-sub">{r.provider_id}</small></>, sortValue: (r) => r.provider_name, rowHeader: true },
    { key: 'state', header: 'State', cell: (r) => r.provider_state, sortValue: (r) => r.provider_state },
    ...PRICE_CELLS.filter((c) => c.kind === 'number').map(priceCell),
    { key: 'medicare', header: '% of Medicare', align: 'right', sortValue: (r) => r.medicare_pct, cell: (r) => (r.medicare_pct === null ? null : (
      <><MedicarePct value={r.medicare_pct} basis={r.medicare_basis} /><span className="medicare-basis">{medicareBasisText(r.medicare_basis)}</span></>
    )) },
    { key: 'validation', header: 'Validation', cell: (r) => <ValidationMark reason={r.validation} settings={settings} />, sortValue: (r) => r.validation ?? '' },
    { key: 'unit', header: 'Unit', cell: (r) => <UnitBadges unit={{ billing_class: r.billing_class, component: r.component, setting: r.setting }} /> },
    ...PRICE_CELLS.filter((c) => c.kind !== 'number').map(priceCell),
    { key: 'files', header: 'File', cell: (r) => r.source_ids.map((id) => `#${id}`).join(', ') },
  ];

  const unit = unitOf(selection);
  const current = load.status === 'ready' ? load.results.find((r) => r.insurer_id === shown) : undefined;
  const where = [selection.state ? `state ${selection.state}` : 'whole market',
    unit ? unitText(unit) : selection.billing_class && selection.billing_class !== 'all' ? selection.billing_class : 'both billing classes',
    selection.providers?.length ? `${selection.providers.length} selected providers` : null,
    selection.shared_providers ? 'at shared providers only' : null,
    selection.billed ? 'where we bill it only' : null].filter(Boolean).join(', ');

  return (
    <Dialog title={`${serviceCode} ${serviceName} - Rate rows behind the prices`} onClose={onClose}>
      <span className="live-wide" hidden />
      {unit && <p className="live-dialog-unit">Comparison unit <UnitBadges unit={unit} /></p>}
      <p className="muted">
        {`Distinct dollar rate rows (${where}), each insurer's latest snapshot. Rows that failed validation are listed with their reason and enter no median. `}
        <Link to="/methodology#rows-that-count">How rows are counted</Link>
      </p>
      {load.status === 'loading' && <p role="status">Loading rate rows...</p>}
      {load.status === 'error' && <p role="alert" className="live-error">{`Failed to load rate rows: ${load.message}`}</p>}
      {load.status === 'ready' && (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Prices and their files">
            <table className="table live-table">
              <caption className="visually-hidden">Median, rate rows, providers, failed rows, files, spread of the provider medians and confidence per insurer</caption>
              <thead>
                <tr><th scope="col">Insurer</th><th scope="col" className="num">Median</th><th scope="col" className="num">Rate rows</th>
                  <th scope="col" className="num">Providers</th><th scope="col" className="num">Failed validation</th>
                  <th scope="col">Files (reporting entity, last updated, snapshot)</th>
                  <th scope="col" className="num">Provider medians<span className="th-note">p10-p90 (p25-p75)</span></th>
                  <th scope="col">Confidence</th><th scope="col"><span className="visually-hidden">Rows</span></th></tr>
              </thead>
              <tbody>
                {load.results.map((r) => (
                  <tr key={r.insurer_id} className={r.insurer_id === shown ? 'is-selected' : undefined}>
                    <th scope="row">{r.insurer_name}</th>
                    <td className="num">{formatUsd(r.median)}</td>
                    <td className="num">{formatCount(r.rate_count)}</td>
                    <td className="num">{formatCount(r.provider_count)}</td>
                    <td className={`num${r.failed_rows > 0 ? ' live-error' : ''}`}>{formatCount(r.failed_rows)}</td>
                    <td>
                      {r.sources.length === 0 ? '-' : (
                        <ul className="live-sources">
                          {r.sources.map((s) => (
                            <li key={s.source_id}>
                              <span className="live-source__url">{`#${s.source_id} ${s.url}`}</span>
                              <small className="live-sub">{`${s.reporting_entity_name} · last updated ${s.last_updated_on || '-'} · snapshot ${s.snapshot} · ${formatCount(s.rows)} ${s.rows === 1 ? 'row' : 'rows'}`}</small>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td className="num">
                      {r.p10 === null ? '-' : <>{`${formatUsd(r.p10)}-${formatUsd(r.p90)}`}<small className="live-sub">{`(${formatUsd(r.p25)}-${formatUsd(r.p75)})`}</small></>}
                    </td>
                    <td><ConfidenceBadge confidence={r.confidence} reasons={r.confidence_reasons} /></td>
                    <td>
                      <button type="button" className="button live-small" aria-pressed={r.insurer_id === shown}
                        onClick={() => setShown(r.insurer_id)}>{`Rows of ${r.insurer_name}`}</button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {meanLabel && <p className="live-mean">{meanOfMedians(meanLabel, load.results)}</p>}
          <div className="live-bar">
            <h3>
              {current ? `${current.insurer_name}: ${formatCount(current.rate_count)} rate ${current.rate_count === 1 ? 'row' : 'rows'}` : 'Rate rows'}
              {current && current.failed_rows > 0 && (
                <span className="live-failed-count">{` · ${formatCount(current.failed_rows)} failed validation (listed, not counted)`}</span>
              )}
            </h3>
            <ExportCsvButton
              fileName={exportFileName(`rate-rows-${serviceCode}`, [['state', selection.state],
                ['unit', unit ? `${unit.billing_class}-${unit.component}-${unit.setting}` : null],
                ['class', unit ? null : selection.billing_class], ['providers', selection.providers?.join('-')],
                ['shared', selection.shared_providers ? 'providers' : null], ['where', selection.billed ? 'billed' : null]])}
              build={() => ({
                header: ['insurer_id', 'billing_code', 'snapshot', 'provider_id', 'provider_name', 'npi', 'provider_state',
                  ...RATE_ROW_PRICE_COLUMNS.map((c) => c.api), 'component', 'setting', 'medicare_pct', 'medicare_basis', 'validation', 'source_files'],
                rows: load.results.flatMap((res) => res.rows.map((r) => [res.insurer_id, res.service_code, res.snapshot, r.provider_id, r.provider_name,
                  r.npi, r.provider_state, ...RATE_ROW_PRICE_COLUMNS.map((c) => r[c.api]), r.component, r.setting, r.medicare_pct,
                  r.medicare_basis, r.validation, r.source_ids.map((id) => res.sources.find((s) => s.source_id === id)?.url ?? id).join(' ')])),
              })} />
          </div>
          {current && (
            <>
              <DataTable caption={`Rate rows of ${current.insurer_name}`} columns={rowColumns} rows={current.rows.slice(0, SHOWN_ROWS)}
                rowKey={(r) => [r.provider_id, r.component, r.setting, ...RATE_ROW_PRICE_COLUMNS.map((c) => r[c.api])].join('|')}
                rowClassName={(r) => (r.validation ? 'is-failed' : undefined)}
                paging={{ offset: 0, total: current.rows.length }} empty="No dollar rate row for this selection." />
              {current.other_rows > 0 && (
                <p className="muted">{`${formatCount(current.other_rows)} more rows (percentage, per diem or zero rates) are published for this selection; they never enter a dollar figure.`}</p>
              )}
            </>
          )}
        </>
      )}
    </Dialog>
  );
}
