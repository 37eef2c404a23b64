/**
 * DuckDB SQL of a rate row's comparison unit (docs/methodology.md, Per comparison unit), the same rules as
 * contract/rules/medicare.ts componentOf and settingOf, for the converter (native DuckDB) and the worker
 * (DuckDB-WASM) alike. Each function takes SQL expressions of the row's columns as stored in
 * `rates` (lower-case `billing_class`; `modifiers` and `service_codes` comma-separated, '' when
 * none) and returns a VARCHAR expression (unitIndexSql: an INTEGER one).
 */
import { UNIT_BILLING_CLASSES } from '../files/dataset';
import { FACILITY_PLACES_OF_SERVICE } from '../rules/medicare';
import { DOLLAR_NEGOTIATED_TYPES } from '../rules/metrics';
import { sqlList, sqlString } from './sql-text';

/** Components of a unit, in unit index order (contract/rules/medicare.ts Component). */
export const UNIT_COMPONENTS = ['global', '26', 'TC'] as const;
/** Settings of a unit, in unit index order (contract/rules/medicare.ts UnitSetting). */
export const UNIT_SETTINGS = ['non-facility', 'facility'] as const;
/** Comparison units per billing code: billing class x component x setting (unitIndexSql's range). */
export const UNIT_COUNT = UNIT_BILLING_CLASSES.length * UNIT_COMPONENTS.length * UNIT_SETTINGS.length;

/**
 * A unit's index 0 .. UNIT_COUNT - 1 (class-major, then component, then setting, in the orders of
 * UNIT_BILLING_CLASSES, UNIT_COMPONENTS and UNIT_SETTINGS) from SQL expressions of its billing
 * class, component and setting; NULL for a billing class outside UNIT_BILLING_CLASSES.
 */
export function unitIndexSql(billingClass: string, component: string, setting: string): string {
  const index = (x: string, values: readonly string[]): string => `(CASE ${x} ${values.map((v, k) => `WHEN ${sqlString(v)} THEN ${k}`).join(' ')} END)`;
  return `${index(billingClass, UNIT_BILLING_CLASSES)} * ${UNIT_COMPONENTS.length * UNIT_SETTINGS.length}
    + ${index(component, UNIT_COMPONENTS)} * ${UNIT_SETTINGS.length} + ${index(setting, UNIT_SETTINGS)}`;
}

/** `26`, `TC` or `global` from the row's modifiers (contract/rules/medicare.ts componentOf). */
export function componentSql(modifiers: string): string {
  const m = `string_split(coalesce(${modifiers}, ''), ',')`;
  return `CASE WHEN list_contains(${m}, '26') THEN '26' WHEN list_contains(${m}, 'TC') THEN 'TC' ELSE 'global' END`;
}

/**
 * `facility` or `non-facility` (contract/rules/medicare.ts settingOf): institutional rows `facility`;
 * others `facility` when every place-of-service code is a facility setting and there is one.
 */
export function unitSettingSql(billingClass: string, serviceCodes: string): string {
  const codes = `coalesce(${serviceCodes}, '')`;
  return `CASE WHEN ${billingClass} = 'institutional' THEN 'facility'
    WHEN ${codes} <> '' AND len(list_filter(string_split(${codes}, ','), x -> x NOT IN (${sqlList(FACILITY_PLACES_OF_SERVICE)}))) = 0 THEN 'facility'
    ELSE 'non-facility' END`;
}

/**
 * The benchmark kind of a row (docs/methodology.md, Medicare benchmark): `institutional` for institutional
 * rows, `professional` for professional and `both` rows (a `both` row is benchmarked as
 * professional), NULL for any other class.
 */
export function benchmarkKindSql(billingClass: string): string {
  return `CASE ${billingClass} WHEN 'institutional' THEN 'institutional' WHEN 'professional' THEN 'professional' WHEN 'both' THEN 'professional' END`;
}

/**
 * Whether a row is a dollar rate (docs/methodology.md, Rows that count: `negotiated_type` negotiated, fee
 * schedule or derived, in any case, and `negotiated_rate` > 0), from SQL expressions of the two
 * columns; a BOOLEAN expression. `stored`: the type is already lower case (the converter's
 * spool), so it is compared as it is. The same rule in JavaScript: contract/rules/metrics.ts isDollarRate.
 */
export function dollarRateSql(negotiatedType: string, negotiatedRate: string, stored = false): string {
  return `${stored ? negotiatedType : `lower(${negotiatedType})`} IN (${sqlList(DOLLAR_NEGOTIATED_TYPES)}) AND ${negotiatedRate} > 0`;
}

/**
 * SQL true when a `billing_providers` row's `claimClass` (NULL: the claims give no class) covers a
 * rate row of class `unitClass` (docs/methodology.md, Where we bill it: a billing provider of the
 * service "of the unit's billing class where the claims give one"); a `both` row is billed by
 * either class.
 */
export function billsClassSql(claimClass: string, unitClass: string): string {
  return `(${claimClass} IS NULL OR ${claimClass} = ${unitClass} OR ${unitClass} = 'both')`;
}

/**
 * SQL true when the rate row of code `code` and class `billingClass` at provider `providerId` is at a
 * billing provider of its code (docs/methodology.md, Where we bill it), from the dataset's
 * `billing_providers` table.
 */
export function atBillingProviderSql(code: string, billingClass: string, providerId: string): string {
  return `EXISTS (SELECT 1 FROM billing_providers bp WHERE bp.billing_code = ${code} AND bp.provider_id = ${providerId}
    AND ${billsClassSql('bp.billing_class', billingClass)})`;
}
