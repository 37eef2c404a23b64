/**
 * Prices over a selection of providers (docs/methodology.md, Rows that count, Filters: "selected providers
 * where a screen selects some"), computed in SQL from the rate rows of those providers, as the
 * converter builds `price_stats` over every provider: per comparison unit (docs/methodology.md, Per
 * comparison unit: billing code, billing class, component, setting; the unit derived from the
 * row's modifiers and place-of-service codes by contract/sql/unit-sql.ts), the median of the distinct
 * valid dollar rows and the number of distinct providers behind it.
 *
 * With "At shared providers" (docs/methodology.md, Per comparison unit, At shared providers) a row counts
 * only at a provider matched by provider id (NPI, or `TIN:<tin>`) with the other side, for the same
 * code and unit and in the same month M (each insurer with its snapshot for M): a competitor's row
 * where the reference insurer has a valid dollar row, a reference row where at least one competitor
 * of the dataset (every insurer of the manifest but the reference, whatever the selection) has one.
 *
 * With "Where we bill it" a row counts only at a billing provider of its code (`billing_providers`,
 * contract/sql/unit-sql.ts atBillingProviderSql); with both options, the shared providers are matched
 * among those rows (the two conditions commute: a provider bills a unit's code for every insurer).
 *
 * The statement reads the CTE `chosen` (month, insurer_id, snapshot) of the selection's insurers
 * and, with shared providers, `chosen_all`, the same for every insurer of the dataset; the
 * caller (pricing-core.ts) defines both. The rows of the codes must be loaded (workers/db/rates.ts).
 */
import { ALL_STATES, UNIT_BILLING_CLASSES } from '../../contract/files/dataset';
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { atBillingProviderSql, componentSql, dollarRateSql, unitSettingSql } from '../../contract/sql/unit-sql';
import { priceConfidenceRankSql } from '../../contract/sql/confidence-sql';
import { sql, SqlFragment } from '../db/sql';

const text = (t: string): SqlFragment => new SqlFragment(t, []);

/** A rate row's component and setting in SQL (contract/sql/unit-sql.ts: the rules of contract/rules/medicare.ts). */
const UNIT_SQL = new SqlFragment(
  `${componentSql('r.modifiers')} AS component, ${unitSettingSql('r.billing_class', 'r.service_codes')} AS setting`,
  [],
);

/**
 * A valid dollar rate row of a service (docs/methodology.md, Rows that count): CPT/HCPCS, negotiated type
 * `negotiated`/`fee schedule`/`derived` (any case), rate > 0, passed validation, a unit class.
 */
export const VALID_DOLLAR_ROW = sql`r.billing_code_type IN (${SERVICE_CODE_TYPES})
  AND ${new SqlFragment(dollarRateSql('r.negotiated_type', 'r.negotiated_rate'), [])}
  AND r.validation IS NULL AND r.billing_class IN (${UNIT_BILLING_CLASSES})`;

/**
 * `AND` a rate row (alias `r`, its group `g`) is at a billing provider of its code (docs/methodology.md,
 * Where we bill it; the table `billing_providers` must be loaded: ApiContext.billingProviders), or
 * nothing when `billed` is false.
 */
export function billedRowCond(billed: boolean): SqlFragment {
  return billed ? new SqlFragment(`AND ${atBillingProviderSql('r.billing_code', 'r.billing_class', 'g.provider_id')}`, []) : sql``;
}

/**
 * The distinct valid dollar rows of the insurers in CTE `chosen` (their snapshot for the month) at
 * `providers` (every provider when undefined) of `codes` (every loaded code when undefined): one
 * row per (month, insurer, code, provider, class, type, rate, place of service, modifiers), so one
 * provider gives one row per distinct price and a group of several NPIs one row per NPI
 * (docs/methodology.md, Rows that count: identical rate rows count once), with its unit, the
 * provider's state and the row's national Medicare amount (USD).
 */
function distinctRows(chosen: 'chosen' | 'chosen_all', o: Pick<ProviderPricesOptions, 'providers' | 'codes' | 'billed'>): SqlFragment {
  const from = chosen === 'chosen' ? sql`chosen` : sql`chosen_all`;
  const providers = o.providers === undefined ? sql`` : sql`AND g.provider_id IN (${o.providers})`;
  const codes = o.codes === undefined ? sql`` : sql`AND r.billing_code IN (${o.codes})`;
  return sql`
    SELECT DISTINCT c.month, r.snapshot, r.insurer_id, r.billing_code, g.provider_id, r.billing_class,
      lower(r.negotiated_type) AS negotiated_type, r.negotiated_rate, r.service_codes, r.modifiers, pr.state,
      ${UNIT_SQL}, r.medicare_rate
    FROM rates r
    JOIN ${from} c ON c.insurer_id = r.insurer_id AND c.snapshot = r.snapshot
    JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
    LEFT JOIN providers pr ON pr.provider_id = g.provider_id
    WHERE ${VALID_DOLLAR_ROW} ${providers} ${codes} ${billedRowCond(o.billed === true)}`;
}

/** What a provider selection is priced over. */
export interface ProviderPricesOptions {
  /** A state code, or `ALL` (every state). */
  state: string;
  /** Provider ids (NPI or `TIN:<tin>`); undefined = every provider (the market band). */
  providers: readonly string[] | undefined;
  /** Billing codes to read; undefined = every code loaded. */
  codes?: readonly string[] | undefined;
  /** Insurers whose prices are wanted: the reference and the selected competitors. */
  insurers: readonly string[];
  /** docs/methodology.md (Per comparison unit), at shared providers: the reference insurer's id; undefined = every provider. */
  sharedWith?: string | undefined;
  /** docs/methodology.md (Per comparison unit), where we bill it: only rows at billing providers of their code. */
  billed?: boolean | undefined;
}

/**
 * `WITH kept AS (...)`: the rows behind the prices of `o`'s insurers, in its state, under its
 * options. At shared providers, every insurer of the dataset (`chosen_all`) says which providers
 * have a valid row of the unit, per month; a row of a wanted insurer is kept when the other side
 * has one there.
 */
function keptRows(o: ProviderPricesOptions): SqlFragment {
  const state = o.state === ALL_STATES ? sql`` : sql`AND d.state = ${o.state}`;
  if (o.sharedWith === undefined) return sql`WITH kept AS (SELECT * FROM (${distinctRows('chosen', o)}) d WHERE true ${state})`;
  const reference = o.sharedWith;
  return sql`
    WITH d AS (${distinctRows('chosen_all', o)}),
      priced_at AS (SELECT DISTINCT month, insurer_id, billing_code, billing_class, component, setting, provider_id FROM d),
      kept AS (
        SELECT d.* FROM d
        WHERE d.insurer_id IN (${o.insurers}) ${state}
          AND EXISTS (
            SELECT 1 FROM priced_at a
            WHERE a.month = d.month AND a.billing_code = d.billing_code AND a.billing_class = d.billing_class
              AND a.component = d.component AND a.setting = d.setting AND a.provider_id = d.provider_id
              AND CASE WHEN d.insurer_id = ${reference} THEN a.insurer_id <> ${reference} ELSE a.insurer_id = ${reference} END))`;
}

const UNIT_KEYS = 'billing_code, billing_class, component, setting';
const PRICE_KEYS = `month, insurer_id, ${UNIT_KEYS}`;

/**
 * One row per (month, insurer, unit) for the selected providers, with the columns of
 * pricing-core.ts `prices`: month, insurer_id, billing_code, billing_class, component, setting,
 * state (the state asked, or `ALL`), price (median negotiated_rate, USD), provider_count (distinct
 * providers behind it), medicare_rate (the unit's national Medicare amount, USD, or NULL), p10 and
 * p90 of its provider medians (USD), derived (whether a row is `derived`) and conf (its confidence
 * rank: docs/methodology.md, Confidence and distribution; contract/sql/confidence-sql.ts).
 */
export function providerPrices(o: ProviderPricesOptions): SqlFragment {
  // each provider once, by the median of its rows (contract/rules/confidence.ts providerDistribution)
  const aggregate = sql`
    SELECT ${text(PRICE_KEYS)}, ${o.state} AS state, median(negotiated_rate)::DOUBLE AS price,
      count(DISTINCT provider_id)::INTEGER AS provider_count, max(medicare_rate)::DOUBLE AS medicare_rate,
      bool_or(negotiated_type = 'derived') AS derived
    FROM kept GROUP BY ${text(PRICE_KEYS)}`;
  const spread = sql`
    SELECT ${text(PRICE_KEYS)}, quantile_cont(m, 0.1)::DOUBLE AS p10, quantile_cont(m, 0.9)::DOUBLE AS p90
    FROM (SELECT ${text(PRICE_KEYS)}, provider_id, median(negotiated_rate) AS m FROM kept GROUP BY ${text(PRICE_KEYS)}, provider_id)
    GROUP BY ${text(PRICE_KEYS)}`;
  const conf = priceConfidenceRankSql({ providers: 'a.provider_count', p10: 's.p10', p90: 's.p90', price: 'a.price', medicareRate: 'a.medicare_rate', derived: 'a.derived' });
  return sql`${keptRows(o)}
    SELECT a.*, s.p10, s.p90, ${text(conf)} AS conf
    FROM (${aggregate}) a JOIN (${spread}) s USING (${text(PRICE_KEYS)})`;
}

/**
 * The market band of each unit of `o.codes` (docs/methodology.md, Confidence and distribution):
 * p25 and p75 (USD, DuckDB's quantile_cont) of the provider medians of every insurer of
 * `o.insurers` pooled, a provider counting once per insurer, by the median of its rows there; with
 * `providers`, the number of those medians. Columns: billing_code, billing_class, component,
 * setting, p25, p75, providers.
 */
export function marketBand(o: ProviderPricesOptions): SqlFragment {
  return sql`${keptRows(o)}
    SELECT ${text(UNIT_KEYS)}, quantile_cont(m, 0.25)::DOUBLE AS p25, quantile_cont(m, 0.75)::DOUBLE AS p75, count(*)::INTEGER AS providers
    FROM (SELECT ${text(UNIT_KEYS)}, insurer_id, provider_id, median(negotiated_rate) AS m FROM kept GROUP BY ${text(UNIT_KEYS)}, insurer_id, provider_id)
    GROUP BY ${text(UNIT_KEYS)}`;
}
