/**
 * Loads and checks the converter's catalog (docs/converter.md, The catalog).
 *
 * Shape checks use ajv (JSON Schema); a missing required field or a wrong type is a
 * `CatalogError` naming the field. `filters` and `validation` are strict: an unknown key or a bad
 * value is an error naming it (a misspelt filter must never mean 'convert everything'), as is a
 * filter key written in a `files[]` entry that cannot take it; other unknown fields are returned
 * as warnings. The local CSV and
 * billing-code files it names are checked to be files before any conversion starts.
 */
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import type { Catalog } from '../../../contract/files/catalog';
import { DEFAULT_VALIDATION, type ValidationSettings } from '../../../contract/files/dataset';
import { USPS_STATE_CODES } from '../../../contract/rules/us-states';
import { compilePattern, PatternError, printable } from './catalog-pattern';
import { catalogText } from './catalog-text';

/** A catalog that cannot be used; the message names the file and the field. */
export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** `filters.plans`, and a `files[]` entry's own `plans`. */
const planFilterSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    plan_name: { type: 'string', minLength: 1 },
    plan_id: { type: 'array', items: { type: 'string', minLength: 1 } },
    plan_market_type: { enum: ['group', 'individual'] },
    ein: { type: 'array', items: { type: 'string', pattern: '^\\d{2}-?\\d{7}$' } },
  },
};

const fileSchema = {
  type: 'object',
  properties: {
    snapshot: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
    url: { type: 'string', minLength: 1 },
    table_of_contents: { type: 'string', minLength: 1 },
    plans: planFilterSchema,
    file_name: { type: 'string', minLength: 1 },
    network_name: { type: 'string', minLength: 1 },
  },
  anyOf: [{ required: ['url'] }, { required: ['table_of_contents'] }],
};

const catalogSchema = {
  type: 'object',
  required: ['reference_insurer', 'insurers'],
  properties: {
    reference_insurer: { type: 'string', minLength: 1 },
    insurers: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'name', 'files'],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
          name: { type: 'string', minLength: 1 },
          group: { type: 'string', minLength: 1 },
          short_name: { type: 'string' },
          market_share: { type: 'number', minimum: 0, maximum: 1 },
          member_count: { type: 'number', minimum: 0 },
          regions: { type: 'array', items: { type: 'string' } },
          files: { type: 'array', items: fileSchema },
        },
      },
    },
    npi_registry: { type: 'string', minLength: 1 },
    claims_volume: { type: 'string', minLength: 1 },
    services: { type: 'string', minLength: 1 },
    filters: {
      type: 'object',
      additionalProperties: false,
      properties: {
        billing_codes: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        states: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2}$' } },
        plans: planFilterSchema,
        file_name: { type: 'string', minLength: 1 },
      },
    },
    validation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        min_ratio: { type: 'number', exclusiveMinimum: 0 },
        max_ratio: { type: 'number', exclusiveMinimum: 0 },
        source_min_ratio: { type: 'number', exclusiveMinimum: 0 },
        outlier_factor: { type: 'number', exclusiveMinimum: 0 },
        min_providers: { type: 'integer', exclusiveMinimum: 0 },
      },
    },
    cpt_descriptors: { type: 'boolean' },
  },
} as const;

const KNOWN: Record<string, readonly string[]> = {
  '': ['reference_insurer', 'insurers', 'npi_registry', 'claims_volume', 'services', 'filters', 'validation', 'cpt_descriptors'],
  insurer: ['id', 'name', 'group', 'short_name', 'market_share', 'member_count', 'regions', 'files'],
  file: ['snapshot', 'url', 'table_of_contents', 'plans', 'file_name', 'network_name'],
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(catalogSchema);

/** A loaded catalog plus what the converter needs around it. */
export interface LoadedCatalog {
  catalog: Catalog;
  /** Absolute directory that relative paths resolve against. */
  baseDir: string;
  /** SHA-256 of the catalog file's bytes, hex. */
  sha256: string;
  /** Unknown fields, each as a one-line warning. */
  warnings: string[];
}

/** Why an unknown filter key stops the run, at the end of its error. */
const CONVERTS_EVERYTHING = 'a filter the converter does not know would convert everything';

/** The keys of a plan filter (`filters.plans`, a `files[]` entry's `plans`). */
const PLAN_KEYS = Object.keys(planFilterSchema.properties);

/** Where a filter key written in the wrong place belongs, for the error that refuses it. */
function belongsIn(key: string, where: string): string {
  if (PLAN_KEYS.includes(key)) return ` (a plan filter: it belongs in ${where}.plans)`;
  return key === 'network_name' ? ' (a filter of one file: it belongs in a files[] entry)' : '';
}

/** A catalog path of ajv's (`/insurers/0/files/1`) as the docs write it (`insurers[0].files[1]`). */
const dotted = (instancePath: string): string => instancePath.slice(1).replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');

function describe(file: string, e: ErrorObject): string {
  const where = e.instancePath ? dotted(e.instancePath) : '(root)';
  if (e.keyword === 'required') return `${file}: missing required field ${where === '(root)' ? '' : where + '.'}${String(e.params.missingProperty)}`;
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    const filter = where === 'filters' || where.endsWith('.plans');
    return `${file}: unknown setting ${where}.${key}${belongsIn(key, where)}${filter ? `; ${CONVERTS_EVERYTHING}` : ''}`;
  }
  return `${file}: field ${where} ${e.message ?? 'is invalid'}`;
}

function unknownFields(obj: unknown, kind: string, where: string, out: string[]): void {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return;
  for (const k of Object.keys(obj)) if (!KNOWN[kind]!.includes(k)) out.push(`unknown field ignored: ${where}${k}`);
}

/**
 * The catalog's patterns, each with its field: the catalog's filters' and every `files[]` entry's
 * own (`plans.plan_name`, `file_name`, `network_name`).
 */
function catalogPatterns(catalog: Catalog): Array<[string, string]> {
  const found: Array<[string, string | undefined]> = [
    ['filters.plans.plan_name', catalog.filters?.plans?.plan_name],
    ['filters.file_name', catalog.filters?.file_name],
  ];
  catalog.insurers.forEach((ins, i) => ins.files.forEach((f, j) => {
    const at = `insurers[${i}].files[${j}]`;
    found.push([`${at}.plans.plan_name`, f.plans?.plan_name], [`${at}.file_name`, f.file_name], [`${at}.network_name`, f.network_name]);
  }));
  return found.filter((p): p is [string, string] => p[1] !== undefined);
}

/** Filter keys of the catalog's `filters` that a `files[]` entry cannot take: written there, they would filter nothing. */
const FILTER_KEYS_ELSEWHERE = ['billing_codes', 'states', ...PLAN_KEYS];

/** What a stat that is not a regular file found: `a directory`, `a FIFO`, ... */
export function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Checks that local `file` is a regular file to read (a directory fails only at the first read
 * with an EISDIR that names no file; a FIFO or a device may block or never end).
 * @returns its size, or why it cannot be read: `cannot open (ENOENT: ...)`, `not a file (a directory)`.
 */
export async function statLocalFile(file: string): Promise<{ size: number } | { reason: string }> {
  let s: Stats;
  try {
    s = await stat(file);
  } catch (e) {
    return { reason: `cannot open (${(e as Error).message})` };
  }
  return s.isFile() ? { size: s.size } : { reason: `not a file (${kindOf(s)})` };
}

/** Whether a catalog location is an http(s) URL (else a local path, resolveLocation). */
export const isHttpUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** The catalog's local files read after the in-network files (CSV inputs, the billing-code list), by field, as written. */
export function localInputs(catalog: Catalog): Array<[string, string]> {
  const codes = catalog.filters?.billing_codes;
  const fields: Array<[string, string | undefined]> = [
    ['npi_registry', catalog.npi_registry],
    ['claims_volume', catalog.claims_volume],
    ['services', catalog.services],
    ['filters.billing_codes', typeof codes === 'string' ? codes : undefined],
  ];
  return fields.filter((f): f is [string, string] => f[1] !== undefined && !isHttpUrl(f[1]));
}

/**
 * Reads and checks a catalog file.
 * @throws CatalogError when the file is unreadable, not UTF-8 (catalog-text.ts: `<catalog> is
 *   UTF-16 ...; save it as UTF-8`), not JSON, misses a required field, names a reference insurer it
 *   does not list or that has no files, has a filter pattern RE2 refuses (catalog-pattern.ts:
 *   a syntax error, a backreference, a lookaround), an unknown filter key (with where it belongs
 *   when it is one misplaced), a state that is no USPS code, or names a local CSV or billing-code file that
 *   is missing or not a file (`<catalog>: npi_registry <path>: not a file (a directory)`).
 */
export async function loadCatalog(catalogPath: string): Promise<LoadedCatalog> {
  let bytes: Buffer;
  try {
    bytes = await readFile(catalogPath);
  } catch (e) {
    throw new CatalogError(`${catalogPath}: cannot read catalog (${(e as Error).message})`);
  }
  let text: string;
  try {
    text = catalogText(bytes);
  } catch (e) {
    throw new CatalogError(`${catalogPath} ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // JSON.parse quotes the text around the error, which may hold control characters.
    throw new CatalogError(`${catalogPath}: not valid JSON (${printable((e as Error).message)})`);
  }
  if (!validate(data)) throw new CatalogError(describe(catalogPath, validate.errors![0]!));
  const catalog = data as unknown as Catalog;
  const v = validationSettings(catalog);
  if (v.min_ratio >= v.max_ratio) {
    throw new CatalogError(`${catalogPath}: field validation.min_ratio (${v.min_ratio}) must be below validation.max_ratio (${v.max_ratio})`);
  }
  for (const [field, pattern] of catalogPatterns(catalog)) {
    try {
      compilePattern(pattern);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      throw new CatalogError(`${catalogPath}: field ${field} is not a valid regular expression (${e.reason}; ` +
        `the patterns are RE2 syntax, without backreferences or lookaround): ${printable(JSON.stringify(pattern))}`);
    }
  }
  const badState = catalog.filters?.states?.find((st) => !USPS_STATE_CODES.includes(st.toUpperCase()));
  if (badState !== undefined) {
    throw new CatalogError(`${catalogPath}: field filters.states: ${printable(JSON.stringify(badState))} is not a US state or territory code (USPS, two letters)`);
  }
  catalog.insurers.forEach((ins, i) => ins.files.forEach((f, j) => {
    const misplaced = Object.keys(f).find((k) => FILTER_KEYS_ELSEWHERE.includes(k));
    if (misplaced === undefined) return;
    const home = PLAN_KEYS.includes(misplaced) ? `insurers[${i}].files[${j}].plans` : 'filters';
    throw new CatalogError(`${catalogPath}: unknown setting insurers[${i}].files[${j}].${misplaced} (it belongs in ${home}); ` +
      CONVERTS_EVERYTHING);
  }));
  const warnings: string[] = [];
  unknownFields(catalog, '', '', warnings);
  catalog.insurers.forEach((ins, i) => {
    unknownFields(ins, 'insurer', `insurers[${i}].`, warnings);
    ins.files.forEach((f, j) => unknownFields(f, 'file', `insurers[${i}].files[${j}].`, warnings));
  });
  const ids = catalog.insurers.map((i) => i.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new CatalogError(`${catalogPath}: insurer id ${dup} is listed twice`);
  if (!ids.includes(catalog.reference_insurer)) {
    throw new CatalogError(`${catalogPath}: reference_insurer ${printable(catalog.reference_insurer)} is not among insurers[].id`);
  }
  const reference = ids.indexOf(catalog.reference_insurer);
  if (catalog.insurers[reference]!.files.length === 0) {
    // Every comparison is against the reference insurer's rates: without files, every one is empty.
    throw new CatalogError(`${catalogPath}: reference_insurer ${catalog.reference_insurer} has no files (insurers[${reference}].files is empty); every comparison is against its rates`);
  }
  const baseDir = path.dirname(path.resolve(catalogPath));
  for (const [field, value] of localInputs(catalog)) {
    const file = resolveLocation(baseDir, value);
    const found = await statLocalFile(file);
    if ('reason' in found) throw new CatalogError(`${catalogPath}: ${field} ${file}: ${found.reason}`);
  }
  return {
    catalog,
    baseDir,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    warnings,
  };
}

/**
 * The validation settings of a checked catalog: its `validation` keys over contract/files/dataset.ts
 * DEFAULT_VALIDATION (docs/methodology.md, Validation).
 */
export function validationSettings(catalog: Catalog): ValidationSettings {
  return { ...DEFAULT_VALIDATION, ...catalog.validation };
}

/** Resolves a catalog path or URL against the catalog's directory (docs/converter.md, The catalog). */
export function resolveLocation(baseDir: string, location: string): string {
  if (isHttpUrl(location)) return location;
  return path.resolve(baseDir, location);
}
