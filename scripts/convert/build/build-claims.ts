/**
 * The claims-volume input (docs/converter.md, The catalog) into the dataset's `claims_volume`
 * (contract/files/dataset.ts): its values checked (csv-inputs.ts), its counts summed per code, state and
 * billing class in 128 bits, and split by the units of `price_stats` once those exist.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES, MARKET_SCOPE } from '../../../contract/files/dataset';
import { sqlString } from '../../../contract/sql/sql-text';
import { badRowSql, billingCodeRule, countRule, failAtFirstBadRecord, oneOfRule, patternRule, requireColumns, stateRule } from '../plan/csv-inputs';

/** The classes a claims-volume row may name (docs/converter.md, The catalog). */
const CLAIM_CLASSES = ['professional', 'institutional'] as const;

/** The largest claims_count the dataset holds (an INTEGER column: contract/files/dataset.ts, docs/dataset.md). */
const MAX_CLAIMS = 2147483647;

/** What the claims-volume input holds beside the counts (docs/converter.md, The catalog). */
export interface ClaimsShape {
  /** It has a `state` column. */
  byState: boolean;
  /** It has an `npi` or a `tin` column, and a row with a claim names a provider (metrics.md, Where we bill it). */
  byProvider: boolean;
}

/** An NPI in the claims input: 10 digits. */
const NPI_PATTERN = '[0-9]{10}';
/** A TIN in the claims input: 9 digits, hyphens allowed between them (`12-3456789`, `123-45-6789`). */
const TIN_PATTERN = '[0-9](-?[0-9]){8}';

/**
 * `claims_input(billing_code, state, billing_class, claims_count)` from the claims-volume input
 * `file` (none: an empty table): national sums (`state` ALL) and, with a `state` column, per-state
 * sums, in 128 bits; `billing_class` (`professional` | `institutional`) from the input's column,
 * NULL without one (finishClaims splits those). With `npi` or `tin` columns, also
 * `claims_providers(billing_code, billing_class, npi, tin)`: each distinct provider named by rows of
 * a code (and class) whose claims add up to 1 or more; `npi` when the row gives one, else `tin`
 * (its 9 digits, hyphens removed). The table is always created, empty without those columns.
 *
 * Every value is checked (docs/converter.md, The catalog; csv-inputs.ts): a billing code, a count
 * of claims, a USPS state or none, a billing class, an NPI (10 digits) or none, a TIN (9 digits,
 * hyphens allowed) or none. One scan of the file sums its rows by code, state, class and provider
 * and checks each count; the other rules are checked on those groups, so a file of millions of
 * lines is read once and the regular expressions run per group.
 * @throws Error naming the file, a missing column, or the line, column and value of the first bad
 *   one (csv-inputs.ts); or when a total may not fit the dataset's claims_count (checkClaimTotals).
 */
export async function buildClaims(con: DuckDBConnection, file: string | undefined): Promise<ClaimsShape> {
  await con.run('CREATE OR REPLACE TABLE claims_providers (billing_code VARCHAR, billing_class VARCHAR, npi VARCHAR, tin VARCHAR)');
  if (!file) {
    await con.run(`CREATE TABLE claims_input (billing_code VARCHAR, state VARCHAR, billing_class VARCHAR, claims_count INTEGER);`);
    return { byState: false, byProvider: false };
  }
  const cols = await requireColumns(con, file, ['billing_code', 'claims_count']);
  const byState = cols.includes('state');
  const byClass = cols.includes('billing_class');
  const byNpi = cols.includes('npi');
  const byTin = cols.includes('tin');
  const count = countRule('claims_count');
  const groupRules = [billingCodeRule(), ...(byState ? [stateRule('state')] : []), ...(byClass ? [oneOfRule('billing_class', CLAIM_CLASSES)] : []),
    ...(byNpi ? [patternRule('npi', NPI_PATTERN, 'an NPI (10 digits) or nothing', true)] : []),
    ...(byTin ? [patternRule('tin', TIN_PATTERN, 'a TIN (9 digits, hyphens allowed) or nothing', true)] : [])];
  const value = (c: string): string => `nullif(trim(${c}), '')`;
  await con.run(`
    CREATE TEMP TABLE claims_groups AS
    SELECT trim(billing_code) AS billing_code, ${byState ? 'upper(trim(state))' : 'NULL::VARCHAR'} AS state,
           ${byClass ? 'lower(trim(billing_class))' : 'NULL::VARCHAR'} AS billing_class,
           ${byNpi ? value('npi') : 'NULL::VARCHAR'} AS npi, ${byTin ? value('tin') : 'NULL::VARCHAR'} AS tin,
           sum(TRY_CAST(trim(claims_count) AS BIGINT)) AS n, bool_or(${badRowSql([count])}) AS bad_count
    FROM read_csv(${sqlString(file)}, header = true, all_varchar = true) GROUP BY ALL`);
  const bad = await con.runAndReadAll(`SELECT 1 FROM claims_groups WHERE bad_count OR ${badRowSql(groupRules)} LIMIT 1`);
  if (bad.getRows().length > 0) await failAtFirstBadRecord(con, file, [groupRules[0]!, count, ...groupRules.slice(1)]);
  await con.run(`
    CREATE TABLE claims_input AS
    SELECT billing_code, '${ALL_STATES}' AS state, billing_class, sum(n) AS claims_count FROM claims_groups GROUP BY billing_code, billing_class
    UNION ALL SELECT billing_code, state, billing_class, sum(n) FROM claims_groups WHERE state IS NOT NULL AND state <> '' GROUP BY ALL;
    INSERT INTO claims_providers
    SELECT billing_code, billing_class, npi, CASE WHEN npi IS NULL THEN replace(tin, '-', '') END AS tin
    FROM claims_groups WHERE npi IS NOT NULL OR tin IS NOT NULL
    GROUP BY ALL HAVING sum(n) > 0 ORDER BY ALL;
    DROP TABLE claims_groups;`);
  await checkClaimTotals(con, file);
  const named = (await con.runAndReadAll('SELECT count(*) FROM claims_providers')).getRows()[0]![0];
  return { byState, byProvider: Number(named) > 0 };
}

/**
 * `billing_providers(billing_code, billing_class, provider_id)` (contract/files/dataset.ts): the billing
 * providers of each code (metrics.md, Per comparison unit, Where we bill it), from
 * `claims_providers` (buildClaims) and `provider_groups`: an NPI names that provider; a TIN names
 * every provider of a provider group reported under it (`tin_value`, hyphens removed), in any
 * insurer's file. Only providers of the dataset are kept; `billing_class` NULL: the claims give no
 * class, so the provider bills the code in any class. Sorted, so the table is reproducible.
 * @throws when SQL fails.
 */
export async function buildBillingProviders(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE OR REPLACE TABLE billing_providers AS
    SELECT DISTINCT c.billing_code, c.billing_class, p.provider_id
    FROM claims_providers c JOIN providers p ON p.npi = c.npi
    UNION
    SELECT c.billing_code, c.billing_class, g.provider_id
    FROM claims_providers c JOIN (SELECT DISTINCT replace(tin_value, '-', '') AS tin, provider_id FROM provider_groups) g ON g.tin = c.tin
    ORDER BY billing_code, billing_class, provider_id;
    DROP TABLE claims_providers;`);
}

/**
 * Stops when a claims_volume total may exceed MAX_CLAIMS: a class's sum plus the sum without a
 * class, which finishClaims adds to the professional class and may add to the institutional one.
 * The dataset's column stays an INTEGER, so that its Arrow type (numbers, not BigInts) and every
 * figure its readers compute (workers/, headline.ts, first-view.ts) stay as they are; a real
 * insurer's yearly claims of one code are far below 2^31.
 * @throws Error `<file>: column 'claims_count': the <class> claims of billing code <code> in <state> total <n>, ...`.
 */
async function checkClaimTotals(con: DuckDBConnection, file: string): Promise<void> {
  const r = await con.runAndReadAll(`
    WITH t AS (
      SELECT billing_code, state, sum(claims_count) FILTER (WHERE billing_class IS NULL) AS unclassed,
             sum(claims_count) FILTER (WHERE billing_class = 'professional') AS professional,
             sum(claims_count) FILTER (WHERE billing_class = 'institutional') AS institutional
      FROM claims_input GROUP BY ALL)
    SELECT billing_code, state, c.class, CAST(c.total AS VARCHAR) FROM t,
      LATERAL (VALUES ('professional', coalesce(professional, 0) + coalesce(unclassed, 0)),
                      ('institutional', coalesce(institutional, 0) + coalesce(unclassed, 0))) c(class, total)
    WHERE c.total > ${MAX_CLAIMS} ORDER BY state <> '${ALL_STATES}', state, billing_code, c.class <> 'professional' LIMIT 1`);
  const row = r.getRows()[0];
  if (!row) return;
  const [code, state, cls, total] = row.map(String);
  const where = state === ALL_STATES ? `the whole market (state ${ALL_STATES})` : `state ${state}`;
  throw new Error(`${file}: column 'claims_count': the ${cls} claims of billing code ${code} in ${where} total ${total}, ` +
    `more than the dataset's claims_count holds (${MAX_CLAIMS})`);
}

/**
 * `claims_volume` from `claims_input` (docs/methodology.md, Per comparison unit, claims_volume(s)): a row
 * with a billing class as it is; one without goes to the professional class, and also to the
 * institutional class when the OPPS Addendum B pays the code (`opps_paid`, validation.ts) or the
 * code has no professional unit (no professional or `both` row in `price_stats`). Runs once
 * `price_stats` is filled (write-dataset.ts); checkClaimTotals has made sure each total fits.
 * @throws when SQL fails.
 */
export async function finishClaims(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TABLE claims_volume AS
    SELECT billing_code, state, billing_class, CAST(sum(claims_count) AS INTEGER) AS claims_count FROM (
      SELECT billing_code, state, billing_class, claims_count FROM claims_input WHERE billing_class IS NOT NULL
      UNION ALL SELECT billing_code, state, 'professional', claims_count FROM claims_input WHERE billing_class IS NULL
      UNION ALL SELECT billing_code, state, 'institutional', claims_count FROM claims_input c WHERE billing_class IS NULL
        AND (billing_code IN (SELECT billing_code FROM opps_paid)
             OR billing_code NOT IN (SELECT billing_code FROM price_stats WHERE scope = '${MARKET_SCOPE}' AND billing_class IN ('professional', 'both'))))
    GROUP BY ALL;
    DROP TABLE claims_input;`);
}
