/**
 * '% of Medicare' where one provider is shown (docs/methodology.md, Medicare benchmark): live search and the
 * rate rows behind a price. At the provider's Medicare locality when the provider has GPCIs
 * (`providers.gpci_*`) and the unit's benchmark is a Physician Fee Schedule amount
 * (`medicare_benchmarks.source = 'pfs'`): (work RVU x work GPCI + PE RVU x PE GPCI + MP RVU x MP
 * GPCI) x the manifest's conversion factor (contract/rules/medicare.ts localityAmount); else at the
 * row's national amount (`rates.medicare_rate`); none without a benchmark.
 */
import { VALIDATION_REASONS, type ValidationReason } from '../../contract/files/dataset';
import { localityAmount } from '../../contract/rules/medicare';
import { medicarePct } from '../../contract/rules/metrics';
import { sqlList } from '../../contract/sql/sql-text';
import type { MedicareBasis } from '../../contract/api';
import { benchmarkKindSql, componentSql, unitSettingSql } from '../../contract/sql/unit-sql';
import { SqlFragment } from '../db/sql';

/** The columns `medicareAt` reads from a row (MEDICARE_COLUMNS_SQL). */
export interface MedicareColumns {
  medicare_rate: number | null;
  benchmark_source: string | null;
  work_rvu: number | null;
  pe_rvu: number | null;
  mp_rvu: number | null;
  gpci_work: number | null;
  gpci_pe: number | null;
  gpci_mp: number | null;
}

/** A rate row's component and unit setting, as `component` and `unit_setting`, from alias `r` (contract/sql/unit-sql.ts). */
export const ROW_UNIT_SQL = new SqlFragment(
  `${componentSql('r.modifiers')} AS component, ${unitSettingSql('r.billing_class', 'r.service_codes')} AS unit_setting`,
  [],
);

/**
 * A row's validation reason after grouping identical rows (several files may publish one row): null
 * when one of them is valid, else the reason checked first (docs/methodology.md, Validation: the order of the checks), as its
 * 1-based position in VALIDATION_REASONS (`validation_rank`, read by validationOf).
 */
export const VALIDATION_RANK_SQL = new SqlFragment(
  `CASE WHEN bool_or(r.validation IS NULL) THEN NULL ELSE min(list_position([${sqlList(VALIDATION_REASONS)}], r.validation)) END AS validation_rank`,
  [],
);

/** The reason of a `validation_rank` (VALIDATION_RANK_SQL); a value outside the list reads as null. */
export function validationOf(rank: number | null): ValidationReason | null {
  return rank == null ? null : (VALIDATION_REASONS[rank - 1] ?? null);
}

/**
 * The benchmark columns of a relation `x` with `billing_code`, `billing_class`, `component`,
 * `unit_setting` and `provider_id`: a LEFT JOIN of its unit's `medicare_benchmarks` row and its
 * provider's GPCIs. Use as `FROM x ${MEDICARE_JOIN_SQL}` and select MEDICARE_COLUMNS_SQL.
 */
export const MEDICARE_JOIN_SQL = new SqlFragment(
  `LEFT JOIN medicare_benchmarks mb ON mb.billing_code = x.billing_code AND mb.billing_class = ${benchmarkKindSql('x.billing_class')}
      AND mb.component = x.component AND mb.setting = x.unit_setting
    LEFT JOIN providers mp ON mp.provider_id = x.provider_id`,
  [],
);

/** The MedicareColumns of MEDICARE_JOIN_SQL (`x.medicare_rate` is the row's national amount). */
export const MEDICARE_COLUMNS_SQL = new SqlFragment(
  `x.medicare_rate::DOUBLE AS medicare_rate, mb.source AS benchmark_source, mb.work_rvu::DOUBLE AS work_rvu,
    mb.pe_rvu::DOUBLE AS pe_rvu, mb.mp_rvu::DOUBLE AS mp_rvu, mp.gpci_work::DOUBLE AS gpci_work,
    mp.gpci_pe::DOUBLE AS gpci_pe, mp.gpci_mp::DOUBLE AS gpci_mp`,
  [],
);

/**
 * '% of Medicare' of a dollar rate `price` (USD) at one provider, and which amount it is of; both
 * null without a benchmark. `conversionFactor` is the manifest's (USD per RVU); without one, national.
 */
export function medicareAt(price: number, c: MedicareColumns, conversionFactor: number | undefined): { medicare_pct: number | null; medicare_basis: MedicareBasis | null } {
  const local =
    c.benchmark_source === 'pfs' && conversionFactor !== undefined &&
    c.work_rvu != null && c.pe_rvu != null && c.mp_rvu != null && c.gpci_work != null && c.gpci_pe != null && c.gpci_mp != null
      ? localityAmount({ work_rvu: c.work_rvu, pe_rvu: c.pe_rvu, mp_rvu: c.mp_rvu }, { work: c.gpci_work, pe: c.gpci_pe, mp: c.gpci_mp }, conversionFactor)
      : null;
  const atLocality = medicarePct(price, local);
  if (atLocality !== null) return { medicare_pct: atLocality, medicare_basis: 'locality' };
  const national = medicarePct(price, c.medicare_rate);
  return national === null ? { medicare_pct: null, medicare_basis: null } : { medicare_pct: national, medicare_basis: 'national' };
}
