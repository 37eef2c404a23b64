/**
 * The SQL of a generated dataset's tables (scripts/generate/dataset.ts), in the dataset schema of
 * contract/files/dataset.ts, as pure functions of the dataset's plan (GenerationPlan). Everything is a
 * function of integers through DuckDB's `hash`, so the same plan gives the same rows.
 *
 * Universe: insurer i (0 the reference `ref`, then `ins1` ..) x snapshot s is source
 * `i * snapshots + s`; service k has billing code `10021 + k * codeStep`; provider p has NPI
 * `1000000000 + p` and is its own provider group in every source (one NPI per group), in state
 * `states[p % states]`. The rate rows of (code k, source) are j = 0 .. perCode - 1: the reference's
 * at provider `(k * 7919 + j * 17) % providers`, a competitor's at the same provider for a
 * deterministic `sharedFraction` of its (k, j) (the same for all its snapshots) and elsewhere for
 * the others; one in three institutional, 2 % `percentage`, the others dollar rates around the
 * code's base price with insurer, month and row factors; every rate valid (validation NULL), with
 * a national Medicare amount of 0.8 x the code's base price. The insurer factor turns with the code
 * (`(i + k) % 7`), so that the reference insurer pays above the market for some codes and below it
 * for others, as a real one does, rather than the least for every code.
 */
import { sqlList } from '../../contract/sql/sql-text';

/** The sizes a generated dataset is made of. */
export interface GenerationPlan {
  insurers: number;
  /** Snapshot months `YYYY-MM`, ascending. */
  snapshots: readonly string[];
  services: number;
  providers: number;
  /** The providers' states, by postal code. */
  states: readonly string[];
  /** Rate rows per (code, source). */
  perCode: number;
  /** Fraction 0..1 of a competitor's rate rows at a provider where the reference rates the same code (1: all). */
  sharedFraction: number;
}

/** The distance between two consecutive billing codes: 113 when few enough (the benchmarks' default dataset), closer for more services. */
export function codeStep(services: number): number {
  return Math.max(1, Math.min(113, Math.floor(89_978 / services)));
}

/**
 * SQL creating the tables that do not depend on the rates: `src` (source_id, insurer_id, snapshot,
 * i), `codes` (k, billing_code, base), `providers`, `services`, `claims_volume`,
 * `medicare_benchmarks`, an empty `billing_providers`, and the view `provider_groups` (every provider in every source: written
 * sorted by the converter's writer, never held whole).
 */
export function baseTablesSql(plan: GenerationPlan): string {
  const S = plan.snapshots.length;
  const states = sqlList(plan.states);
  return `
    CREATE TABLE src AS SELECT i * ${S} + s AS source_id, CASE WHEN i = 0 THEN 'ref' ELSE 'ins' || i END AS insurer_id,
      ([${sqlList(plan.snapshots)}])[s + 1] AS snapshot, i FROM range(${plan.insurers}) a(i), range(${S}) b(s);
    CREATE TABLE codes AS SELECT k, (10021 + k * ${codeStep(plan.services)})::VARCHAR AS billing_code, (50 + (hash(k) % 2000))::DOUBLE AS base
      FROM range(${plan.services}) t(k);
    CREATE TABLE providers AS SELECT (1000000000 + p)::VARCHAR AS provider_id, (1000000000 + p)::VARCHAR AS npi,
      'Provider ' || p AS name, CASE WHEN p % 3 = 0 THEN '2' ELSE '1' END AS entity_type,
      ([${states}])[(p % ${plan.states.length}) + 1] AS state, lpad((p % 99999)::VARCHAR, 5, '0') AS postal_code, '207Q00000X' AS taxonomy_code,
      CASE WHEN p % 4 = 0 THEN NULL ELSE '01112-05' END AS medicare_locality,
      CASE WHEN p % 4 = 0 THEN NULL ELSE 1.088::DOUBLE END AS gpci_work, CASE WHEN p % 4 = 0 THEN NULL ELSE 1.419::DOUBLE END AS gpci_pe,
      CASE WHEN p % 4 = 0 THEN NULL ELSE 0.445::DOUBLE END AS gpci_mp
      FROM range(${plan.providers}) t(p);
    CREATE VIEW provider_groups AS SELECT s.source_id || ':' || p.provider_id AS provider_group_key, s.source_id::INTEGER AS source_id,
      p.provider_id AS provider_group_id, p.provider_id, p.npi, 'npi' AS tin_type, p.npi AS tin_value
      FROM src s, providers p;
    CREATE TABLE services AS SELECT billing_code, 'CPT' AS billing_code_type, 'Service ' || billing_code AS name,
      'Surgical' AS category, '' AS description, '' AS keywords, 'Published ' || billing_code AS published_name FROM codes;
    CREATE TABLE claims_volume AS
      SELECT billing_code, 'ALL' AS state, c.billing_class, (100 + hash(k, c.billing_class) % 900)::INTEGER AS claims_count
      FROM codes, (VALUES ('professional'), ('institutional')) c(billing_class);
    CREATE TABLE medicare_benchmarks AS
      SELECT billing_code, u.billing_class, 'global' AS component, u.setting, round(base * 0.8, 2) AS medicare_rate,
        CASE u.billing_class WHEN 'professional' THEN 'pfs' ELSE 'opps' END AS source,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS work_rvu,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS pe_rvu,
        CASE u.billing_class WHEN 'professional' THEN round(base * 0.8 / 32.3465 / 3, 2) END AS mp_rvu
      FROM codes, (VALUES ('professional', 'non-facility'), ('institutional', 'facility')) u(billing_class, setting);
    CREATE TABLE billing_providers (billing_code VARCHAR, billing_class VARCHAR, provider_id VARCHAR);`;
}

/**
 * SQL of the provider index of rate row (code k, row j) of insurer i (SQL expressions): the
 * reference's `(k * 7919 + j * 17) % providers`; a competitor's the same when `hash(k, j, i)` falls
 * in the shared fraction, else half the providers further on (a provider the reference rates for
 * another code, or none).
 */
function providerIndexSql(plan: GenerationPlan, k: string, j: string, i: string): string {
  const P = plan.providers;
  const base = `(${k} * 7919 + ${j} * 17)`;
  if (plan.sharedFraction >= 1) return `${base} % ${P}`;
  const shared = Math.round(plan.sharedFraction * 1000);
  return `(${base} + CASE WHEN ${i} > 0 AND hash(${k}, ${j}, ${i}) % 1000 >= ${shared} THEN ${Math.floor(P / 2)} + ${i} * 31 ELSE 0 END) % ${P}`;
}

/**
 * SQL of a SELECT of the rate rows of the codes `from` <= k < `to`: the columns of
 * contract/files/dataset.ts RATE_ROW_COLUMNS with `provider_group_key` (one group per row).
 */
export function rateRowsOfCodesSql(plan: GenerationPlan, from: number, to: number): string {
  return `
    SELECT c.billing_code, 'CPT' AS billing_code_type, s.snapshot, s.insurer_id, s.source_id::INTEGER AS source_id,
      CASE WHEN j % 3 = 0 THEN 'institutional' ELSE 'professional' END AS billing_class,
      CASE WHEN hash(c.k, j, s.source_id) % 50 = 0 THEN 'percentage' ELSE 'negotiated' END AS negotiated_type,
      round(c.base * (0.8 + ((s.i + c.k) % 7) * 0.06 + (s.source_id % 2) * 0.03) * (0.85 + (hash(j, c.k, s.source_id) % 300) / 1000.0), 2) AS negotiated_rate,
      s.source_id || ':' || ((1000000000 + ${providerIndexSql(plan, 'c.k', 'j', 's.i')})::VARCHAR) AS provider_group_key,
      '11' AS service_codes, '' AS modifiers, '9999-12-31' AS expiration_date, NULL::VARCHAR AS setting,
      'ffs' AS negotiation_arrangement, NULL::VARCHAR AS additional_information,
      CASE WHEN negotiated_type = 'percentage' THEN NULL ELSE round(c.base * 0.8, 2) END AS medicare_rate, NULL::VARCHAR AS validation
    FROM (SELECT * FROM codes WHERE k >= ${from} AND k < ${to}) c, src s, range(${plan.perCode}) t(j)`;
}

/** The sort of a `rates` part: by billing code (the manifest's row-group index), then a total order of the rest. */
export const RATES_ORDER = 'billing_code, snapshot, insurer_id, source_id, provider_group_key, negotiated_rate, billing_class, negotiated_type';
