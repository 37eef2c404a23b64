/**
 * The manifest of a conversion, and what it says of the Medicare benchmark and the validation (docs/methodology.md, Validation;
 * contract/files/dataset.ts ManifestSource.validation, ManifestMedicare): each source's rates by reason
 * and its median % of Medicare, and the reference data read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import path from 'node:path';
import {
  DATASET_FORMAT, DATASET_FORMAT_VERSION, DEFAULT_VALIDATION, VALIDATION_REASONS,
  type DatasetManifest, type ManifestMedicare, type ManifestSource, type ManifestTable, type ValidationReason,
} from '../../../contract/files/dataset';
import type { Catalog } from '../../../contract/files/catalog';
import type { ProblemLog } from '../common/problems';
import type { ClaimsShape } from './build-claims';
import type { PlannedFile } from '../plan/plan-files';
import type { PartitionSource } from '../store/source-store';
import { sqlList, type Spool } from '../spool/spool';
import type { MedicareTables } from '../../medicare/tables';

/** No rate failed: every reason 0. */
export const noFailures = (): Record<ValidationReason, number> =>
  Object.fromEntries(VALIDATION_REASONS.map((r) => [r, 0])) as Record<ValidationReason, number>;

/**
 * Fills each source's `validation` (rate rows by reason, counted from the `rates` parts written in
 * `outDir`, so in the unit of `rate_rows`: a price once per provider group of its list, once when it
 * names none) and `median_medicare_pct` (validation.ts `source_checks`).
 * @throws when a part or the working tables cannot be read.
 */
export async function fillSourceValidation(con: DuckDBConnection, outDir: string, rates: ManifestTable, sources: ManifestSource[]): Promise<void> {
  for (const s of sources) {
    s.validation = noFailures();
    s.median_medicare_pct = null;
  }
  if (rates.files.length > 0) {
    const files = sqlList(rates.files.map((f) => path.join(outDir, f)));
    const r = await con.runAndReadAll(`
      SELECT source_id, validation, sum(coalesce(len(provider_group_ids), 1)) AS n
      FROM read_parquet([${files}]) WHERE validation IS NOT NULL GROUP BY ALL`);
    for (const [id, reason, n] of r.getRows()) sources[Number(id)]!.validation[String(reason) as ValidationReason] = Number(n);
  }
  const pct = await con.runAndReadAll('SELECT source_id, median_medicare_pct FROM source_checks WHERE median_medicare_pct IS NOT NULL');
  for (const [id, value] of pct.getRows()) sources[Number(id)]!.median_medicare_pct = Number(value);
}

/** The manifest's account of the CMS reference data read (its year, conversion factor, files and notices). */
export function medicareManifest(ref: MedicareTables, cptDescriptors: boolean): ManifestMedicare {
  return {
    year: ref.year,
    conversion_factor: ref.conversionFactor,
    files: ref.files,
    notices: ref.notices,
    cpt_descriptors: cptDescriptors,
  };
}

/** What makeManifest puts together. */
export interface ManifestParts {
  converterVersion: string;
  catalog: Catalog;
  catalogSha: string;
  createdAt: string;
  tables: DatasetManifest['tables'];
  sources: ManifestSource[];
  problems: ProblemLog;
  /** What the claims input holds (build-claims.ts). */
  claims: ClaimsShape;
}

/**
 * The manifest (contract/files/dataset.ts DatasetManifest) of a conversion whose tables are written;
 * `validation`, `medicare` and `headline` are placeholders the caller fills.
 * @throws when SQL fails.
 */
export async function makeManifest(spool: Spool, p: ManifestParts): Promise<DatasetManifest> {
  const snapshots = [...new Set(p.sources.map((s) => s.snapshot))].sort();
  return {
    format: DATASET_FORMAT,
    format_version: DATASET_FORMAT_VERSION,
    created_at: p.createdAt,
    converter_version: p.converterVersion,
    catalog_sha256: p.catalogSha,
    reference_insurer: p.catalog.reference_insurer,
    snapshots,
    insurers: p.catalog.insurers.map((i) => ({
      id: i.id,
      name: i.name,
      group: i.group ?? i.name,
      short_name: i.short_name ?? i.name,
      market_share: i.market_share ?? 0,
      member_count: i.member_count ?? 0,
      regions: i.regions ?? [],
    })),
    tables: p.tables,
    sources: p.sources,
    counts: {
      // the rate rows of the rates parts' lists, as fillSourceCounts counts them
      rate_rows: p.sources.reduce((a, s) => a + s.rate_rows, 0),
      unresolved_rate_rows: p.sources.reduce((a, s) => a + s.unresolved_rate_rows, 0),
      provider_groups: Number((await spool.con.runAndReadAll('SELECT count(*) FROM resolved_groups WHERE kept')).getRows()[0]![0]),
      providers: p.tables.providers.rows,
      services: p.tables.services.rows,
      problems: p.problems.total,
      unresolved_provider_references: p.sources.reduce((a, s) => a + (s.unresolved_provider_references ?? 0), 0),
    },
    claims_by_state: p.claims.byState,
    claims_by_provider: p.claims.byProvider,
    // filled by convertCatalog once price_stats is written (billed-stats.ts billingCoverage)
    billing_coverage: [],
    // filled by convertCatalog once the tables are written
    validation: { ...DEFAULT_VALIDATION },
    medicare: { year: 0, conversion_factor: 0, files: [], notices: [], cpt_descriptors: true },
    headline: { snapshot: '', avg_overpayment_unvalidated: null, avg_overpayment_validated: null },
  };
}

/**
 * The manifest entry of partition source `s` of planned `file` (counts and validation filled by
 * the build: fillSourceCounts, fillSourceValidation).
 */
export function manifestSource(file: PlannedFile, s: PartitionSource, problems: number, reused: boolean): ManifestSource {
  return {
    insurer_id: file.insurerId,
    snapshot: s.snapshot,
    url: s.url,
    ...(file.tableOfContents ? { table_of_contents: file.tableOfContents } : {}),
    reporting_entity_name: s.reporting_entity_name,
    ...(s.reporting_entity_type !== undefined ? { reporting_entity_type: s.reporting_entity_type } : {}),
    last_updated_on: s.last_updated_on,
    version: s.version,
    bytes: s.bytes,
    sha256: s.sha256,
    rate_rows: 0,
    unresolved_rate_rows: 0,
    provider_groups: 0,
    validation: noFailures(),
    median_medicare_pct: null,
    problems,
    unresolved_provider_references: s.unresolved_provider_references,
    reused,
  };
}
