/**
 * /data-coverage: what the live numbers rest on, from `GET /api/coverage` (the dataset's
 * manifest.json and report.json): the headline Average Overpayment with validation and without
 * (the effect of the rules in one line), the validation settings and the CMS reference data used;
 * per product (named under its company) and snapshot the files, rate rows, unresolved rate rows and provider references,
 * problems and failed rates, and, when the claims name providers, the share of its valid rates at
 * billing providers (docs/methodology.md, Products, Where we bill it); per file its rates by validation reason and its median % of
 * Medicare; then every file with its reporting entity, `last_updated_on`, schema version and
 * problem codes; the files a table of contents listed that could not be read; the converter's
 * warnings. The tables export as CSV.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { CoverageGroup, CoverageResult, CoverageSource } from '../../../contract/api';
import { VALIDATION_REASONS, type ValidationReason, type ValidationSettings } from '../../../contract/files/dataset';
import { formatCount, formatPercent, formatSignedPercent } from '../../../contract/rules/format';
import { ExportCsvButton } from '../components/ExportCsvButton';
import { validationLabel } from '../components/unit-format';
import { useApi } from '../components/use-api';
import { DataTable, type Column } from '../../components/table/DataTable';
import '../../styles/screens.css';
import '../components/live.css';
import '../components/unit.css';
import { PageHeader } from '../../components/PageHeader';
import { productLabel } from '../../../contract/rules/product';

const count = (n: number) => formatCount(n);
/** Bytes in kB below 1 MB, else MB (decimal units). */
const mb = (bytes: number) => (bytes < 1_000_000
  ? `${(bytes / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kB`
  : `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`);
const codes = (c: Record<string, number>) => Object.entries(c).map(([k, n]) => `${k} ${formatCount(n)}`).join(', ');

/** The share of a product's valid rate rows at billing providers, in percent; null when the claims name no providers or it has none. */
export function billedShare(g: Pick<CoverageGroup, 'valid_rate_rows' | 'billed_rate_rows'>): number | null {
  return g.valid_rate_rows && g.billed_rate_rows !== null ? (100 * g.billed_rate_rows) / g.valid_rate_rows : null;
}

const BILLED_COLUMN: Column<CoverageGroup> = {
  key: 'billed', header: 'At billing providers', align: 'right', sortValue: (g) => billedShare(g),
  cell: (g) => (
    <span title={`${count(g.billed_rate_rows ?? 0)} of ${count(g.valid_rate_rows ?? 0)} valid rate rows of services`}>{formatPercent(billedShare(g))}</span>
  ),
};

const GROUP_COLUMNS: Column<CoverageGroup>[] = [
  { key: 'insurer', header: 'Insurer', cell: (g) => productLabel(g.insurer_group, g.insurer_name), sortValue: (g) => productLabel(g.insurer_group, g.insurer_name), rowHeader: true },
  { key: 'snapshot', header: 'Snapshot', cell: (g) => g.snapshot, sortValue: (g) => g.snapshot },
  { key: 'files', header: 'Files', cell: (g) => count(g.files), sortValue: (g) => g.files, align: 'right' },
  { key: 'rows', header: 'Rate rows', cell: (g) => count(g.rate_rows), sortValue: (g) => g.rate_rows, align: 'right' },
  { key: 'unresolved', header: 'Unresolved rate rows', cell: (g) => count(g.unresolved_rate_rows), sortValue: (g) => g.unresolved_rate_rows, align: 'right' },
  { key: 'refs', header: 'Unresolved references', cell: (g) => count(g.unresolved_provider_references), sortValue: (g) => g.unresolved_provider_references, align: 'right' },
  { key: 'groups', header: 'Provider groups', cell: (g) => count(g.provider_groups), sortValue: (g) => g.provider_groups, align: 'right' },
  { key: 'problems', header: 'Problems', cell: (g) => count(g.problems), sortValue: (g) => g.problems, align: 'right' },
  { key: 'failed', header: 'Failed validation', cell: (g) => count(failedOf(g.validation)), sortValue: (g) => failedOf(g.validation), align: 'right' },
];

/** Rates that failed validation, every reason added up. */
const failedOf = (v: Record<ValidationReason, number>) => VALIDATION_REASONS.reduce((a, r) => a + v[r], 0);

/** Per file: its rates by validation reason and its median % of Medicare (docs/methodology.md, Validation). */
function validationColumns(settings: ValidationSettings): Column<CoverageSource>[] {
  return [
    { key: 'file', header: 'File', rowHeader: true, sortValue: (s) => s.url, cell: (s) => (
      <><span className="live-source__url">{`#${s.source_id} ${s.url}`}</span><small className="live-sub">{`${s.insurer_id} · ${s.snapshot}`}</small></>
    ) },
    { key: 'rows', header: 'Rate rows', cell: (s) => count(s.rate_rows), sortValue: (s) => s.rate_rows, align: 'right' },
    ...VALIDATION_REASONS.map((r): Column<CoverageSource> => ({
      key: r, header: validationLabel(r, settings), cell: (s) => count(s.validation[r]), sortValue: (s) => s.validation[r], align: 'right',
    })),
    { key: 'median', header: 'Median % of Medicare', cell: (s) => formatPercent(s.median_medicare_pct), sortValue: (s) => s.median_medicare_pct, align: 'right' },
  ];
}

/** The headline Average Overpayment with and without validation, in one sentence. */
function HeadlineLine({ c }: { c: CoverageResult }): ReactElement {
  const h = c.headline;
  return (
    <p className="live-headline" data-testid="validation-headline">
      {`Average Overpayment, ${h.snapshot || 'latest month'}: `}
      <strong>{`${formatSignedPercent(h.avg_overpayment_validated)} with validation`}</strong>
      {', '}
      <strong>{`${formatSignedPercent(h.avg_overpayment_unvalidated)} without`}</strong>
      <span className="muted">
        {' (national, every competitor, every comparison unit; "without" counts every dollar rate and keeps low-confidence units).'}
      </span>
    </p>
  );
}

/** The settings the conversion validated with (manifest `validation`). */
function ValidationSettingsList({ v }: { v: ValidationSettings }): ReactElement {
  const x = (n: number) => `${Number(n.toPrecision(6))}x`;
  return (
    <dl className="counters" aria-label="Validation settings used">
      <div><dt>Lower bound</dt><dd>{`${x(v.min_ratio)} Medicare`}</dd></div>
      <div><dt>Upper bound</dt><dd>{`${x(v.max_ratio)} Medicare`}</dd></div>
      <div><dt>Source check</dt><dd>{`median under ${x(v.source_min_ratio)} Medicare`}</dd></div>
      <div><dt>Outlier factor</dt><dd>{x(v.outlier_factor)}</dd></div>
      <div><dt>Min providers</dt><dd>{formatCount(v.min_providers)}</dd></div>
    </dl>
  );
}


const SOURCE_COLUMNS: Column<CoverageSource>[] = [
  { key: 'file', header: 'File', rowHeader: true, sortValue: (s) => s.url, cell: (s) => (
    <><span className="live-source__url">{`#${s.source_id} ${s.url}`}</span>{s.table_of_contents && <small className="live-sub">{`from ${s.table_of_contents}`}</small>}</>
  ) },
  { key: 'insurer', header: 'Insurer', cell: (s) => s.insurer_id, sortValue: (s) => s.insurer_id },
  { key: 'snapshot', header: 'Snapshot', cell: (s) => s.snapshot, sortValue: (s) => s.snapshot },
  { key: 'entity', header: 'Reporting entity', cell: (s) => s.reporting_entity_name, sortValue: (s) => s.reporting_entity_name },
  { key: 'updated', header: 'Last updated', cell: (s) => s.last_updated_on, sortValue: (s) => s.last_updated_on },
  { key: 'version', header: 'Version', cell: (s) => s.version },
  { key: 'size', header: 'Size', cell: (s) => mb(s.bytes), sortValue: (s) => s.bytes, align: 'right' },
  { key: 'rows', header: 'Rate rows', cell: (s) => count(s.rate_rows), sortValue: (s) => s.rate_rows, align: 'right' },
  { key: 'unresolved', header: 'Unresolved rows', cell: (s) => count(s.unresolved_rate_rows), sortValue: (s) => s.unresolved_rate_rows, align: 'right' },
  { key: 'refs', header: 'Unresolved refs', cell: (s) => count(s.unresolved_provider_references), sortValue: (s) => s.unresolved_provider_references, align: 'right' },
  { key: 'problems', header: 'Problems', cell: (s) => (s.problems ? `${count(s.problems)}${Object.keys(s.problem_codes).length ? ` (${codes(s.problem_codes)})` : ''}` : '0'), sortValue: (s) => s.problems },
];

export function DataCoverage(): ReactElement {
  const load = useApi('GET /api/coverage', {});
  const c = load.data;
  return (
    <section className="page" aria-labelledby="coverage-title">
      <title>Data Coverage · Compete</title>
      <PageHeader id="coverage-title" title="Data Coverage"
        description={<>
          The files every live figure rests on, what was read from them and what could not be.{' '}
          <Link className="live-method" to="/methodology#rows-that-count">Which rows count</Link>
        </>} />
      {load.status === 'loading' && <p className="live-status" role="status">Loading...</p>}
      {load.status === 'error' && (
        <div className="live-error-panel panel" role="alert">
          <p><strong>Failed to load the data coverage.</strong></p>
          <p className="live-error-panel__detail">{load.message}</p>
        </div>
      )}
      {c && (
        <>
          <div className="section panel">
            <dl className="counters live-coverage__totals">
              <div><dt>Converted</dt><dd>{c.created_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</dd></div>
              <div><dt>Converter</dt><dd>{c.converter_version}</dd></div>
              <div><dt>Reference insurer</dt><dd>{c.reference_insurer}</dd></div>
              <div><dt>Snapshots</dt><dd>{c.snapshots.join(', ')}</dd></div>
              <div><dt>Files</dt><dd>{count(c.sources.length)}</dd></div>
              <div><dt>Rate rows</dt><dd>{count(c.counts.rate_rows)}</dd></div>
              <div><dt>Unresolved rate rows</dt><dd>{count(c.counts.unresolved_rate_rows)}</dd></div>
              <div><dt>Unresolved references</dt><dd>{count(c.counts.unresolved_provider_references)}</dd></div>
              <div><dt>Providers</dt><dd>{count(c.counts.providers)}</dd></div>
              <div><dt>Services</dt><dd>{count(c.counts.services)}</dd></div>
              <div><dt>Problems</dt><dd>{count(c.report.problems_total)}</dd></div>
              <div><dt>Failed validation</dt><dd>{count(c.sources.reduce((a, s) => a + failedOf(s.validation), 0))}</dd></div>
            </dl>
            {!c.report.available && <p className="live-error" role="note">{`report.json could not be read (${c.report.reason ?? 'unknown reason'}): problem codes and failed files are not shown.`}</p>}
          </div>

          <div className="section panel">
            <div className="section__head">
              <h2>Validation</h2>
              <p><Link to="/methodology#validation">The checks</Link> · <Link to="/methodology#medicare-benchmark">the Medicare benchmark</Link></p>
            </div>
            <HeadlineLine c={c} />
            <h3 className="live-coverage__sub">Settings used by this conversion</h3>
            <ValidationSettingsList v={c.validation} />
            <p className="muted live-coverage__cms">
              {`Medicare benchmark: CMS ${c.medicare.year} fee schedules, conversion factor $${c.medicare.conversion_factor} per RVU, ${formatCount(c.medicare.files.length)} reference files.`}
            </p>
          </div>

          <div className="panel cmp-results">
            <div className="section__head live-bar">
              <div><h2>Validation per file</h2><p>Dollar rates of services that failed each check (listed on screens, never counted), and the median % of Medicare of the valid ones</p></div>
              <ExportCsvButton fileName="data-coverage_validation.csv" build={() => ({
                header: ['source_id', 'insurer_id', 'snapshot', 'url', 'rate_rows', ...VALIDATION_REASONS, 'median_medicare_pct'],
                rows: c.sources.map((s) => [s.source_id, s.insurer_id, s.snapshot, s.url, s.rate_rows, ...VALIDATION_REASONS.map((r) => s.validation[r]),
                  s.median_medicare_pct]),
              })} />
            </div>
            <DataTable className="live-coverage-validation" caption="Validation per file" columns={validationColumns(c.validation)} rows={c.sources}
              rowKey={(s) => String(s.source_id)} />
          </div>

          <div className="panel cmp-results">
            <div className="section__head live-bar">
              <div>
                <h2>Per insurer and snapshot</h2>
                <p>
                  {"Sums over each insurer's files of that month"}
                  {c.claims_by_provider && <>{'; at billing providers: the share of its valid rates of services at providers with a claim of the service in the reference insurer\'s claims '}
                    <Link className="live-method" to="/methodology#where-we-bill-it">(Where we bill it)</Link></>}
                </p>
              </div>
              <ExportCsvButton fileName="data-coverage_per-insurer.csv" build={() => ({
                header: ['insurer_id', 'insurer_name', 'insurer_group', 'snapshot', 'files', 'rate_rows', 'unresolved_rate_rows', 'unresolved_provider_references', 'provider_groups', 'problems',
                  ...VALIDATION_REASONS, 'valid_rate_rows', 'billed_rate_rows'],
                rows: c.groups.map((g) => [g.insurer_id, g.insurer_name, g.insurer_group, g.snapshot, g.files, g.rate_rows, g.unresolved_rate_rows, g.unresolved_provider_references, g.provider_groups, g.problems,
                  ...VALIDATION_REASONS.map((r) => g.validation[r]), g.valid_rate_rows, g.billed_rate_rows]),
              })} />
            </div>
            <DataTable caption="Coverage per insurer and snapshot" columns={c.claims_by_provider ? [...GROUP_COLUMNS, BILLED_COLUMN] : GROUP_COLUMNS} rows={c.groups} rowKey={(g) => `${g.insurer_id}|${g.snapshot}`} />
          </div>

          <div className="panel cmp-results">
            <div className="section__head live-bar">
              <div><h2>Files</h2><p>Every converted in-network file (manifest sources)</p></div>
              <ExportCsvButton fileName="data-coverage_files.csv" build={() => ({
                header: ['source_id', 'insurer_id', 'snapshot', 'url', 'table_of_contents', 'reporting_entity_name', 'last_updated_on', 'version', 'bytes',
                  'rate_rows', 'unresolved_rate_rows', 'unresolved_provider_references', 'problems', 'problem_codes'],
                rows: c.sources.map((s) => [s.source_id, s.insurer_id, s.snapshot, s.url, s.table_of_contents, s.reporting_entity_name, s.last_updated_on,
                  s.version, s.bytes, s.rate_rows, s.unresolved_rate_rows, s.unresolved_provider_references, s.problems, codes(s.problem_codes)]),
              })} />
            </div>
            <DataTable className="live-coverage-files" caption="Converted files" columns={SOURCE_COLUMNS} rows={c.sources} rowKey={(s) => String(s.source_id)} />
          </div>

          {(c.report.failed_files.length > 0 || c.report.other_files.length > 0 || c.report.warnings.length > 0) && (
            <div className="section panel">
              <div className="section__head"><h2>Not converted, and warnings</h2></div>
              <ul className="live-sources">
                {c.report.failed_files.map((f) => (
                  <li key={f.file}><span className="live-source__url">{f.file}</span><small className="live-sub">{`not read: ${f.reason}`}</small></li>
                ))}
                {c.report.other_files.map((f) => (
                  <li key={f.file}><span className="live-source__url">{f.file}</span><small className="live-sub">{codes(f.codes)}</small></li>
                ))}
                {c.report.warnings.map((w) => <li key={w}>{w}</li>)}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
