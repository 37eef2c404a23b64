/**
 * `GET /api/coverage`: what the live figures rest on, for the data coverage page. Per converted
 * in-network file (manifest `sources`, docs/dataset.md): insurer, snapshot, reporting entity,
 * `last_updated_on`, rate rows, unresolved rate rows and provider references, problems; the sums
 * per insurer and snapshot; and from `report.json` (read on demand, once per dataset) the problem
 * counts by code, the files a table of contents listed that could not be read, and the warnings.
 * A missing or unreadable report.json leaves the manifest's figures and says why. The validation
 * counts per file and their sums, the validation settings, the Medicare reference data and the
 * headline with validation off and on come from the manifest (docs/methodology.md, Validation).
 */
import type { CoverageGroup, CoverageResult, CoverageSource } from '../../contract/api';
import { DEFAULT_VALIDATION, VALIDATION_REASONS, type ValidationReason } from '../../contract/files/dataset';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';

/** The parts of report.json (scripts/convert/common/problems.ts ConversionReport) the page shows. */
interface ReportView {
  problems_total: number;
  counts: Record<string, Record<string, number>>;
  failed_files: Array<{ file: string; reason: string }>;
  warnings: string[];
}

type ReportLoad = { ok: true; report: ReportView } | { ok: false; reason: string };

const reports = new WeakMap<ApiContext, Promise<ReportLoad>>();

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks the shape of report.json; unknown fields are ignored. @throws Error naming the bad field */
export function parseReport(text: string): ReportView {
  const raw: unknown = JSON.parse(text);
  if (!isRecord(raw)) throw new Error('report.json is not an object');
  const counts: Record<string, Record<string, number>> = {};
  if (isRecord(raw.counts)) {
    for (const [file, byCode] of Object.entries(raw.counts)) {
      if (!isRecord(byCode)) continue;
      counts[file] = Object.fromEntries(Object.entries(byCode).filter((e): e is [string, number] => typeof e[1] === 'number'));
    }
  }
  const failed = Array.isArray(raw.failed_files) ? raw.failed_files.filter(isRecord) : [];
  return {
    problems_total: typeof raw.problems_total === 'number' ? raw.problems_total : 0,
    counts,
    failed_files: failed.map((f) => ({ file: String(f.file ?? ''), reason: String(f.reason ?? '') })),
    warnings: Array.isArray(raw.warnings) ? raw.warnings.map(String) : [],
  };
}

function loadReport(ctx: ApiContext): Promise<ReportLoad> {
  let p = reports.get(ctx);
  if (!p) {
    const read = ctx.dataset.readFile;
    p = read
      ? read('report.json').then(
          (bytes) => ({ ok: true as const, report: parseReport(new TextDecoder().decode(bytes)) }),
          (e: unknown) => ({ ok: false as const, reason: e instanceof Error ? e.message : String(e) }),
        ).catch((e: unknown) => ({ ok: false as const, reason: `report.json: ${e instanceof Error ? e.message : String(e)}` }))
      : Promise.resolve({ ok: false as const, reason: 'this dataset gives no access to report.json' });
    reports.set(ctx, p);
  }
  return p;
}

/** Counts by every reason, 0 where the manifest has none. */
function byReason(counts: Partial<Record<ValidationReason, number>> | undefined): Record<ValidationReason, number> {
  return Object.fromEntries(VALIDATION_REASONS.map((r) => [r, counts?.[r] ?? 0])) as Record<ValidationReason, number>;
}

async function run(_params: Record<string, never>, ctx: ApiContext): Promise<CoverageResult> {
  const { manifest } = ctx;
  const load = await loadReport(ctx);
  const counts = load.ok ? load.report.counts : {};
  const sources: CoverageSource[] = manifest.sources.map((s, i) => ({
    source_id: i, insurer_id: s.insurer_id, snapshot: s.snapshot, url: s.url, table_of_contents: s.table_of_contents ?? null,
    reporting_entity_name: s.reporting_entity_name, last_updated_on: s.last_updated_on, version: s.version, bytes: s.bytes,
    rate_rows: s.rate_rows, unresolved_rate_rows: s.unresolved_rate_rows, provider_groups: s.provider_groups,
    problems: s.problems, unresolved_provider_references: s.unresolved_provider_references ?? 0,
    validation: byReason(s.validation), median_medicare_pct: s.median_medicare_pct ?? null,
    problem_codes: counts[s.url] ?? {},
  }));
  const groups = new Map<string, CoverageGroup>();
  const billed = new Map((manifest.billing_coverage ?? []).map((b) => [`${b.insurer_id}|${b.snapshot}`, b]));
  const byProvider = manifest.claims_by_provider === true;
  for (const s of sources) {
    const key = `${s.insurer_id}|${s.snapshot}`;
    const insurer = manifest.insurers.find((i) => i.id === s.insurer_id);
    const b = billed.get(key);
    const g = groups.get(key) ?? {
      insurer_id: s.insurer_id, insurer_name: insurer?.name ?? s.insurer_id, insurer_group: insurer?.group ?? insurer?.name ?? s.insurer_id,
      snapshot: s.snapshot, files: 0, rate_rows: 0, unresolved_rate_rows: 0, provider_groups: 0, problems: 0, unresolved_provider_references: 0,
      validation: byReason(undefined),
      valid_rate_rows: byProvider ? (b?.valid_rate_rows ?? 0) : null,
      billed_rate_rows: byProvider ? (b?.billed_rate_rows ?? 0) : null,
    };
    g.files += 1;
    g.rate_rows += s.rate_rows;
    g.unresolved_rate_rows += s.unresolved_rate_rows;
    g.provider_groups += s.provider_groups;
    g.problems += s.problems;
    g.unresolved_provider_references += s.unresolved_provider_references;
    for (const r of VALIDATION_REASONS) g.validation[r] += s.validation[r];
    groups.set(key, g);
  }
  const known = new Set(sources.map((s) => s.url));
  return {
    created_at: manifest.created_at,
    converter_version: manifest.converter_version,
    reference_insurer: manifest.reference_insurer,
    snapshots: manifest.snapshots,
    counts: manifest.counts,
    validation: { ...DEFAULT_VALIDATION, ...manifest.validation },
    medicare: manifest.medicare,
    headline: manifest.headline,
    claims_by_provider: byProvider,
    groups: [...groups.values()].sort((a, b) => (a.insurer_id === b.insurer_id ? (a.snapshot < b.snapshot ? -1 : 1) : a.insurer_id < b.insurer_id ? -1 : 1)),
    sources,
    report: {
      available: load.ok,
      reason: load.ok ? null : load.reason,
      problems_total: load.ok ? load.report.problems_total : manifest.counts.problems,
      failed_files: load.ok ? load.report.failed_files : [],
      warnings: load.ok ? load.report.warnings : [],
      other_files: Object.entries(counts).filter(([file]) => !known.has(file)).map(([file, codes]) => ({ file, codes })),
    },
  };
}

/** Reads the manifest alone: answered while the provider tables load. */
export const coverage: Endpoint<'GET /api/coverage'> = { route: 'GET /api/coverage', reads: 'first-tables', parse: () => ({}), run, pure: true };
