/**
 * Builds the dataset's tables (contract/files/dataset.ts) from the raw spool tables in SQL:
 * resolves provider groups, enriches providers from the NPI registry, names and categorises
 * services and totals claims; the medians of docs/methodology.md (`price_stats`) come after, from
 * build-price-stats.ts (alone, or beside the Parquet writes: write-dataset.ts).
 *
 * Inputs besides the spool: a `sources(source_id, insurer_id, snapshot)` table the caller fills,
 * and the optional CSV inputs of the catalog (docs/converter.md, The catalog), read by DuckDB's CSV reader.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Catalog } from '../../../contract/files/catalog';
import { resolveLocation } from '../plan/catalog';
import { CATEGORY_RANGES, SERVICE_CODE_TYPES } from '../../../contract/rules/metrics';
import { RATE_ROW_COLUMNS } from '../../../contract/sql/rate-rows-sql';
import { PRICE_COLUMN_NAMES } from '../../../contract/files/price-columns';
import { applyNetworkFilters, type NetworkFilter } from './build-networks';
import { planBucketEnums, planCodeBuckets } from './stats/code-buckets';
import { PRICE_VALUE_COLUMNS } from '../spool/price-values';
import { GROUP_ID_UNNEST_SQL, sqlList, sqlString, valueJoins } from '../spool/spool';
import type { MedicareTables } from '../../medicare/tables';
import { appendRows } from './append-rows';
import { USPS_STATE_CODES } from '../../../contract/rules/us-states';
import { badRowSql, billingCodeRule, checkCsv, csvColumns, failAtFirstBadRecord, patternRule, requireColumns, type ColumnRule } from '../plan/csv-inputs';
import { buildBillingProviders, buildClaims, type ClaimsShape } from './build-claims';

export { finishClaims } from './build-claims';

/** Optional inputs of the catalog, as absolute paths. */
export interface TableInputs {
  referenceInsurer: string;
  /** The Medicare tables of the dataset's codes (scripts/medicare/tables.ts): providers' localities, services' descriptors. */
  medicare: MedicareTables;
  npiRegistry?: string;
  claimsVolume?: string;
  services?: string;
  /** Keep only providers in these states (upper case), when given. */
  states?: string[];
  /** Rate rows per billing-code bucket (code-buckets.ts; default BUCKET_ROWS); tests set it small. */
  bucketRows?: number;
  /** The `network_name` filters of the catalog's entries, by their files' sources (build-networks.ts). */
  networks?: readonly NetworkFilter[];
  /** Where the network filters' warnings go (a file that names no network). */
  warnings?: string[];
}

/** NPPES column names used (docs/converter.md, The catalog). */
const NPPES = {
  npi: 'NPI',
  entity: 'Entity Type Code',
  org: 'Provider Organization Name (Legal Business Name)',
  last: 'Provider Last Name (Legal Name)',
  first: 'Provider First Name',
  state: 'Provider Business Practice Location Address State Name',
  postal: 'Provider Business Practice Location Address Postal Code',
  taxonomy: 'Healthcare Provider Taxonomy Code_1',
} as const;

const q = (col: string): string => `"${col.replace(/"/g, '""')}"`;

/** The registry's checked columns (docs/converter.md, The catalog): a 10-digit NPI; entity type 1, 2 or none (a deactivated NPI). */
const REGISTRY_RULES: readonly ColumnRule[] = [
  patternRule(NPPES.npi, '[0-9]{10}', 'an NPI (10 digits)'),
  patternRule(NPPES.entity, '[12]', "an entity type code ('1' or '2') or nothing", true),
];

/**
 * SQL of a provider group's `provider_group_key`, `<source_id>:<provider_group_id>` (docs/dataset.md
 * data dictionary), from a relation with those two columns: provider_groups' key and the one rates
 * carry (write-parquet.ts).
 */
export const PROVIDER_GROUP_KEY_SQL = `CAST(source_id AS VARCHAR) || ':' || provider_group_id`;

/**
 * provider_groups and the resolution of rates to them; `resolved_groups.gid` is an integer
 * surrogate of provider_group_key, in its order (joins of build-price-stats.ts).
 * Only the groups some price names (`named_ids`, one scan of the price x group rows, which
 * buildNamedRefs reuses) become provider groups: a group no rate names stands for no rate row
 * (docs/methodology.md counts from rate rows), and under a billing-code filter most of a file's groups are
 * named only by the items filtered out, so the provider tables, the registry lookup and the medians'
 * membership tables hold only the groups of the kept rates.
 */
async function buildGroups(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TABLE named_ids AS
    SELECT source_id, provider_group_id, count(*) AS n
    FROM (SELECT source_id, ${GROUP_ID_UNNEST_SQL} AS provider_group_id FROM raw_price_rows) GROUP BY ALL;
    CREATE TABLE provider_groups AS
    SELECT DISTINCT ${PROVIDER_GROUP_KEY_SQL} AS provider_group_key,
           source_id, provider_group_id, provider_id, npi, tin_type, tin_value
    FROM raw_groups g SEMI JOIN named_ids r ON r.source_id = g.source_id AND r.provider_group_id = g.provider_group_id
    WHERE provider_id IS NOT NULL;
    CREATE TABLE resolved_groups AS
    SELECT provider_group_key, source_id, provider_group_id, CAST(row_number() OVER (ORDER BY provider_group_key) AS INTEGER) AS gid,
           true AS kept
    FROM (SELECT DISTINCT provider_group_key, source_id, provider_group_id FROM provider_groups);`);
}

/**
 * `rate_items`: every item with rate rows, with its snapshot, insurer, billing-code bucket
 * (code-buckets.ts), `item_order`, its rank by (billing_code, snapshot, insurer_id, source_id,
 * item_id), the order of the `rates` parts (bucketPricesSql), and `ps_series`, an integer key of
 * its (snapshot, insurer_id, billing_code) for the medians of build-price-stats.ts (NULL for code
 * types other than CPT/HCPCS), in (billing_code, snapshot, insurer_id) order so that the series of
 * one code are consecutive, whose text is in `ps_series(ps_series, snapshot, insurer_id, billing_code)`.
 *
 * `rates`, a VIEW of the dataset's rows (contract/files/dataset.ts columns) over `raw_rates`, for the
 * statements that need the expanded rows without their order (ratedCodesSql); the Parquet parts and
 * the medians read each bucket's prices instead (bucketPricesSql, their columns of few values as
 * ENUMs: planBucketEnums). Rows whose group the states filter emptied (`resolved_groups.kept`
 * false) are left out.
 */
/**
 * The SELECT list of the `rates` view: RATE_ROW_COLUMNS but those computed at the write
 * (write-parquet.ts: `medicare_rate`, `validation`), a price column from the rate (`r`; a value
 * column decoded by `value`, spool.ts valueJoins), the group's key from `g`, the others from the item (`k`).
 */
function rateViewColumns(value: (column: string) => string): string {
  const prices = new Set<string>(PRICE_COLUMN_NAMES);
  return RATE_ROW_COLUMNS.filter((c) => c !== 'medicare_rate' && c !== 'validation').map((c) => {
    if ((PRICE_VALUE_COLUMNS as readonly string[]).includes(c)) return `${value(c)} AS ${c}`;
    if (prices.has(c) || c === 'source_id') return `r.${c}`;
    return c === 'provider_group_key' ? `g.${c}` : `k.${c}`;
  }).join(', ');
}

async function buildRates(con: DuckDBConnection, bucketRows?: number): Promise<void> {
  const types = sqlList(SERVICE_CODE_TYPES);
  await con.run(`
    CREATE TABLE rate_items AS
    SELECT i.source_id, i.item_id, i.billing_code, i.billing_code_type, i.negotiation_arrangement, s.snapshot, s.insurer_id,
           CASE WHEN i.billing_code_type IN (${types})
                THEN CAST(dense_rank() OVER (ORDER BY i.billing_code, s.snapshot, s.insurer_id) AS INTEGER) END AS ps_series
    FROM raw_items i JOIN sources s USING (source_id);
    CREATE TABLE ps_series AS
    SELECT DISTINCT ps_series, snapshot, insurer_id, billing_code FROM rate_items WHERE ps_series IS NOT NULL;`);
  await planCodeBuckets(con, bucketRows);
  const v = valueJoins('r');
  await con.run(`
    CREATE OR REPLACE TABLE rate_items AS
    SELECT k.*, b.bucket, CAST(row_number() OVER (ORDER BY k.billing_code, k.snapshot, k.insurer_id, k.source_id, k.item_id) AS INTEGER) AS item_order
    FROM rate_items k JOIN code_buckets b USING (billing_code);
    CREATE VIEW rates AS
    SELECT ${rateViewColumns(v.value)}
    FROM raw_rates r
    JOIN rate_items k ON k.source_id = r.source_id AND k.item_id = r.item_id
    LEFT JOIN resolved_groups g ON g.source_id = r.source_id AND g.provider_group_id = r.provider_group_id
    ${v.joins}
    WHERE g.kept IS DISTINCT FROM false;`);
  await planBucketEnums(con);
}

/**
 * `named_refs(source_id, provider_group_id, n, resolved, kept, declared)`: every provider group id
 * the prices of a file name (NULL for prices naming none), with its rate rows `n`; `resolved` when
 * it joins `provider_groups`, `kept` false when the states filter emptied its group, `declared` when
 * the file declares it (an undeclared id is a dangling reference). The scan of the price x group
 * rows of buildGroups (`named_ids`) serves the provider groups, the source counts, the
 * dangling-reference report and the provider_group_key of the `rates` write (write-parquet.ts),
 * which then needs no join. Runs after buildProviders (`kept`).
 */
async function buildNamedRefs(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TABLE named_refs AS
    SELECT r.source_id, r.provider_group_id, r.n, g.gid IS NOT NULL AS resolved, coalesce(g.kept, true) AS kept,
           d.provider_group_id IS NOT NULL AS declared
    FROM named_ids r
    LEFT JOIN resolved_groups g ON g.source_id = r.source_id AND g.provider_group_id = r.provider_group_id
    LEFT JOIN (SELECT DISTINCT source_id, provider_group_id FROM raw_groups) d
      ON d.source_id = r.source_id AND d.provider_group_id = r.provider_group_id;
    DROP TABLE named_ids;`);
}

async function buildProviders(con: DuckDBConnection, inputs: TableInputs): Promise<void> {
  await con.run(`CREATE TABLE provider_ids AS SELECT provider_id, max(npi) AS npi FROM provider_groups GROUP BY provider_id;`);
  if (inputs.npiRegistry) {
    await requireColumns(con, inputs.npiRegistry, Object.values(NPPES));
    // one scan reads the registry's rows of the dataset's NPIs and finds any row that breaks
    // REGISTRY_RULES; a state that is not a USPS code (the federal file has some full names and
    // foreign regions) is no state
    await con.run(
      `CREATE TABLE registry AS
       SELECT ${q(NPPES.npi)} AS npi, ${q(NPPES.entity)} AS entity_type,
              CASE WHEN ${q(NPPES.entity)} = '2' THEN ${q(NPPES.org)}
                   ELSE trim(concat_ws(' ', ${q(NPPES.first)}, ${q(NPPES.last)})) END AS name,
              CASE WHEN upper(trim(${q(NPPES.state)})) IN (${sqlList(USPS_STATE_CODES)}) THEN upper(trim(${q(NPPES.state)})) END AS state,
              left(trim(${q(NPPES.postal)}), 5) AS postal_code,
              ${q(NPPES.taxonomy)} AS taxonomy_code, ${badRowSql(REGISTRY_RULES)} AS bad
       FROM read_csv($1, header = true, all_varchar = true)
       WHERE ${q(NPPES.npi)} IN (SELECT npi FROM provider_ids WHERE npi IS NOT NULL) OR ${badRowSql(REGISTRY_RULES)};`,
      [inputs.npiRegistry],
    );
    if ((await con.runAndReadAll('SELECT 1 FROM registry WHERE bad LIMIT 1')).getRows().length > 0) {
      await failAtFirstBadRecord(con, inputs.npiRegistry, REGISTRY_RULES);
    }
  } else {
    await con.run(`CREATE TABLE registry (npi VARCHAR, entity_type VARCHAR, name VARCHAR, state VARCHAR,
                   postal_code VARCHAR, taxonomy_code VARCHAR);`);
  }
  await loadLocalities(con, inputs.medicare);
  // with the Medicare locality of the provider's ZIP (docs/methodology.md, Medicare benchmark: ZIP5 file ->
  // carrier and locality -> GPCI row), NULL when the ZIP is unknown or needs a ZIP+4 to decide
  await con.run(`
    CREATE TABLE providers AS
    SELECT p.*, z.medicare_locality, z.gpci_work, z.gpci_pe, z.gpci_mp FROM (
      SELECT p.provider_id, p.npi, coalesce(nullif(r.name, ''), p.provider_id) AS name, r.entity_type,
             nullif(r.state, '') AS state, nullif(r.postal_code, '') AS postal_code, r.taxonomy_code
      FROM provider_ids p LEFT JOIN (SELECT DISTINCT ON (npi) * FROM registry) r ON r.npi = p.npi) p
    LEFT JOIN zip_localities z USING (postal_code);
    DROP TABLE provider_ids; DROP TABLE zip_localities;`);
  if (inputs.states?.length) {
    // docs/converter.md (The catalog) filters.states: keep only providers located in these states; rates whose
    // group keeps no provider are dropped (they are filtered out, not unresolved).
    await con.run(`
      DELETE FROM providers WHERE state IS NULL OR state NOT IN (${sqlList(inputs.states)});
      DELETE FROM provider_groups WHERE provider_id NOT IN (SELECT provider_id FROM providers);
      UPDATE resolved_groups SET kept = false
        WHERE provider_group_key NOT IN (SELECT provider_group_key FROM provider_groups);`);
  }
}

/**
 * `zip_localities(postal_code, medicare_locality, gpci_work, gpci_pe, gpci_mp)`: the Medicare locality
 * (`<carrier>-<locality>`) and its GPCIs of each ZIP that decides one, which `providers` joins.
 */
async function loadLocalities(con: DuckDBConnection, medicare: MedicareTables): Promise<void> {
  await con.run('CREATE TABLE zip_localities (postal_code VARCHAR, medicare_locality VARCHAR, gpci_work DOUBLE, gpci_pe DOUBLE, gpci_mp DOUBLE)');
  await appendRows(con, 'zip_localities', medicare.zipLocalities.map((z) => [z.zip, z.locality, z.work, z.pe, z.mp]));
}

/**
 * SQL of the billing codes that have at least one row in `rates`. Rows are dropped from `rates`
 * only for groups the states filter emptied (`named_refs.kept` false); without such groups these
 * are the codes of `code_buckets`, planned from the rows of every item (an item without a price
 * has none), which spares an expansion of the prices to price x group rows (1 GB benchmark file:
 * 1.3 s of one thread).
 */
async function ratedCodesSql(con: DuckDBConnection): Promise<string> {
  const r = await con.runAndReadAll('SELECT count(*) FROM named_refs WHERE NOT kept');
  return Number(r.getRows()[0]![0]) > 0 ? 'SELECT DISTINCT billing_code FROM rates' : 'SELECT billing_code FROM code_buckets';
}

async function buildServices(con: DuckDBConnection, inputs: TableInputs): Promise<void> {
  const types = sqlList(SERVICE_CODE_TYPES);
  const rated = await ratedCodesSql(con);
  let overrides = `SELECT NULL::VARCHAR AS billing_code, NULL::VARCHAR AS name, NULL::VARCHAR AS category,
                          NULL::VARCHAR AS description, NULL::VARCHAR AS keywords WHERE false`;
  if (inputs.services) {
    const cols = await csvColumns(con, inputs.services);
    const opt = (c: string): string => (cols.includes(c) ? `nullif(trim(${q(c)}), '')` : 'NULL::VARCHAR');
    overrides = `SELECT DISTINCT ON (billing_code) trim(billing_code) AS billing_code, nullif(trim(name), '') AS name,
                   ${opt('category')} AS category, ${opt('description')} AS description, ${opt('keywords')} AS keywords
                 FROM read_csv(${sqlString(inputs.services)}, header = true, all_varchar = true)`;
  }
  await addDescriptors(con, inputs);
  // docs/methodology.md, Names and categories: services input, else the CMS descriptor, else the most
  // frequent name among the files, which is kept as published_name; category from the input, else
  // from the code's range.
  await con.run(
    `CREATE TABLE services AS
     WITH items AS (
       SELECT i.billing_code, i.billing_code_type, i.name, i.description, s.insurer_id, s.snapshot
       FROM raw_items i JOIN sources s USING (source_id)
       WHERE i.billing_code_type IN (${types}) AND i.billing_code IN (${rated})),
     freq AS (
       SELECT billing_code, name FROM (SELECT billing_code, name, count(*) AS c FROM items WHERE name IS NOT NULL GROUP BY ALL)
       QUALIFY row_number() OVER (PARTITION BY billing_code ORDER BY c DESC, name) = 1),
     descr AS (
       SELECT billing_code, description FROM (
         SELECT billing_code, description, count(*) AS c FROM items WHERE description IS NOT NULL GROUP BY ALL)
       QUALIFY row_number() OVER (PARTITION BY billing_code ORDER BY c DESC, description) = 1),
     codes AS (SELECT billing_code, min(billing_code_type) AS billing_code_type FROM items GROUP BY billing_code),
     o AS (${overrides})
     SELECT c.billing_code, c.billing_code_type,
            coalesce(o.name, d.descriptor, freq.name, c.billing_code) AS name,
            coalesce(o.category, ${categorySql('c.billing_code')}) AS category,
            coalesce(o.description, descr.description, '') AS description,
            coalesce(o.keywords, '') AS keywords,
            freq.name AS published_name
     FROM codes c LEFT JOIN o USING (billing_code) LEFT JOIN service_descriptors d USING (billing_code)
       LEFT JOIN freq USING (billing_code) LEFT JOIN descr USING (billing_code)
     ORDER BY c.billing_code;
     DROP TABLE service_descriptors;`,
  );
}

/**
 * `service_descriptors(billing_code, descriptor)`: the CMS short descriptor of each code that has
 * one (scripts/medicare/tables.ts; CPT descriptors only with the catalog's `cpt_descriptors`).
 */
async function addDescriptors(con: DuckDBConnection, inputs: TableInputs): Promise<void> {
  await con.run('CREATE TABLE service_descriptors (billing_code VARCHAR, descriptor VARCHAR)');
  await appendRows(con, 'service_descriptors', inputs.medicare.descriptors);
}

/** SQL of contract/rules/metrics.ts categoryOfCode (docs/methodology.md, Names and categories), from the same ranges. */
export function categorySql(col: string): string {
  const n = `TRY_CAST(${col} AS INTEGER)`;
  const whens = CATEGORY_RANGES.map(([lo, hi, c]) => `WHEN ${n} BETWEEN ${lo} AND ${hi} THEN '${c}'`).join(' ');
  return `CASE WHEN NOT regexp_full_match(${col}, '[0-9]{5}') THEN 'Other' ${whens} ELSE 'Other' END`;
}

/**
 * Checks the claims-volume and services inputs before anything is built (docs/converter.md, The
 * catalog): their required columns, then every value (csv-inputs.ts); the claims are summed into
 * `claims_input` and `claims_providers` on the way (build-claims.ts buildClaims). Returns what the claims hold.
 * @throws Error naming the file, and the line, column and value of the first bad one, or the code
 *   and state of a claims total that does not fit.
 */
async function checkInputs(con: DuckDBConnection, inputs: Pick<TableInputs, 'claimsVolume' | 'services'>): Promise<ClaimsShape> {
  const claims = await buildClaims(con, inputs.claimsVolume);
  if (inputs.services) {
    await requireColumns(con, inputs.services, ['billing_code', 'name']);
    await checkCsv(con, inputs.services, [billingCodeRule()]);
  }
  return claims;
}

/**
 * Checks the catalog's claims-volume and services inputs and the claims' totals (checkInputs) in a
 * DuckDB of its own, so that a bad value stops a run before any file is read; buildTables checks
 * them again, for its callers that did not.
 * @throws Error naming the file, and the line, column and value of the first bad one, or the code
 *   and state of a total that does not fit.
 */
export async function checkTableInputs(catalog: Catalog, baseDir: string): Promise<void> {
  if (!catalog.claims_volume && !catalog.services) return;
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    await checkInputs(con, {
      claimsVolume: catalog.claims_volume ? resolveLocation(baseDir, catalog.claims_volume) : undefined,
      services: catalog.services ? resolveLocation(baseDir, catalog.services) : undefined,
    });
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

/**
 * Runs every step; returns what the claims input holds (build-claims.ts ClaimsShape).
 * @throws when an input CSV lacks a required column, holds a bad value (checkInputs; the NPI
 *   registry's as buildProviders reads it) or SQL fails (the message names the file).
 */
export async function buildTables(con: DuckDBConnection, inputs: TableInputs): Promise<ClaimsShape> {
  const claims = await checkInputs(con, inputs);
  // the medians at shared providers (build-price-stats.ts) tell the reference from the competitors
  await con.run('CREATE OR REPLACE TABLE reference_insurer AS SELECT $1::VARCHAR AS insurer_id', [inputs.referenceInsurer]);
  await buildGroups(con);
  if (inputs.networks?.length) await applyNetworkFilters(con, inputs.networks, inputs.warnings ?? []);
  await buildRates(con, inputs.bucketRows);
  await buildProviders(con, inputs);
  await buildBillingProviders(con);
  await buildNamedRefs(con);
  await buildServices(con, inputs);
  return claims;
}
