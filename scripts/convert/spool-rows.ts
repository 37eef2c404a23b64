/**
 * Turns normalised reader values (scripts/mrf/types.ts) into CSV rows of the spool's raw tables
 * (spool.ts documents the columns), buffered and written to one file per raw table. DuckDB then
 * loads the files in bulk (`read_csv`), far faster than appending value by value.
 *
 * CSV conventions (read back with `allow_quoted_nulls = false`): an empty unquoted field is NULL,
 * `""` is the empty string; a field holding `"`, `,`, CR or LF is quoted with `"` doubled.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { providerId } from '../../contract/metrics';
import type { MrfInNetworkItem, MrfNegotiatedRate, MrfProvider } from '../mrf/types';

const SPECIAL = /[",\n\r]/;

/** A text field; '' and null both become NULL (as the appenders stored them). */
function t(v: string | null | undefined): string {
  if (v == null || v === '') return '';
  return SPECIAL.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A text field that keeps '' as the empty string. */
function e(v: string): string {
  if (v === '') return '""';
  return SPECIAL.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The CSV text of a `negotiated_rate` (USD or percent): the same double back when DuckDB reads it.
 * Most rates are whole cents, and for them the text is built from the integer number of cents:
 * when `cents / 100 === v` (IEEE division is correctly rounded), `v` is the double nearest to the
 * decimal `cents / 100`, which is what a correctly rounding reader (DuckDB's) makes of the text.
 * That is 4x faster than `String(v)`, ~0.2 s of each parser thread per GB. Other values: String(v).
 */
export function rateText(v: number): string {
  const cents = Math.round(v * 100);
  if (cents / 100 !== v || cents < 0 || cents > Number.MAX_SAFE_INTEGER) return String(v);
  const r = cents % 100;
  const whole = (cents - r) / 100;
  if (r === 0) return `${whole}`;
  return r % 10 === 0 ? `${whole}.${r / 10}` : `${whole}.${r < 10 ? '0' : ''}${r}`;
}

/**
 * Joins the provider_group_ids of one price in `raw_prices` (spool.ts): the ASCII unit separator, a
 * control character that a JSON id can only hold escaped, and that CSV does not quote.
 */
export const GROUP_ID_SEPARATOR = '\x1f';

/** Prefix of the synthetic ids given to inline (v1) provider groups, which have none of their own. */
export const INLINE_PREFIX = 'inline:';

/** Bytes of a CsvFile's buffer: the file is written in pieces of about this size. */
const CSV_BUFFER_BYTES = 1 << 20;

/**
 * One buffered CSV file. Each line is encoded (UTF-8) into an off-heap buffer as it comes, not
 * kept in a string of many lines: such a string is a tree of the lines' pieces that lives until it
 * is written, which V8's young-generation collector copies at every pass.
 */
class CsvFile {
  private readonly buf = Buffer.allocUnsafe(CSV_BUFFER_BYTES);
  private at = 0;
  private fd: number | null = null;
  rows = 0;
  constructor(readonly path: string) {}
  add(line: string): void {
    this.rows++;
    // a UTF-16 unit takes at most 3 bytes in UTF-8
    if (this.at + 3 * line.length > CSV_BUFFER_BYTES) {
      this.flush();
      if (3 * line.length > CSV_BUFFER_BYTES) {
        this.write(Buffer.from(line, 'utf8'));
        return;
      }
    }
    this.at += this.buf.write(line, this.at, 'utf8');
  }
  private write(bytes: Buffer): void {
    this.fd ??= openSync(this.path, 'w');
    for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done);
  }
  flush(): void {
    if (this.at === 0) return;
    this.write(this.buf.subarray(0, this.at));
    this.at = 0;
  }
  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Names of the raw tables, in spool.ts. */
export const RAW_TABLES = ['raw_prices', 'raw_items', 'raw_groups'] as const;

/** The rows of one source written by one thread; file names `<prefix>-<table>.csv`. */
export class SpoolRows {
  readonly files: Record<(typeof RAW_TABLES)[number], CsvFile>;
  priceRows = 0;
  private readonly inlineSeen = new Set<string>();

  constructor(prefix: string, private readonly sourceId: number) {
    this.files = {
      raw_prices: new CsvFile(`${prefix}-raw_prices.csv`),
      raw_items: new CsvFile(`${prefix}-raw_items.csv`),
      raw_groups: new CsvFile(`${prefix}-raw_groups.csv`),
    };
  }

  /** One `raw_items` row. */
  item(itemId: number, item: MrfInNetworkItem): void {
    this.files.raw_items.add(`${this.sourceId},${itemId},${t(item.billing_code_type)},${t(item.billing_code)},${t(item.name)},` +
      `${t(item.description)},${t(item.negotiation_arrangement)}\n`);
  }

  /**
   * The `raw_prices` rows of negotiated rate `rateIndex` of item `itemId`: one per price (its
   * index in the rate's list), with the ids of the groups
   * the rate names joined by GROUP_ID_SEPARATOR (spool.ts `raw_prices`; DuckDB expands them to one
   * row per price x group, never x NPIs). `priceRows` counts the expanded rows.
   */
  rate(itemId: number, rateIndex: number, rate: MrfNegotiatedRate): void {
    const ids = rate.provider_references.length > 0 && rate.provider_groups.length === 0
      ? rate.provider_references
      : [...rate.provider_references, ...rate.provider_groups.map((g) => this.inlineGroup(g))];
    const groups = t(ids.join(GROUP_ID_SEPARATOR));
    const f = this.files.raw_prices;
    for (let k = 0; k < rate.prices.length; k++) {
      const p = rate.prices[k]!;
      f.add(`${this.sourceId},${itemId},${rateIndex},${k},${groups},${t(p.billing_class)},${t(p.negotiated_type)},${rateText(p.negotiated_rate)},${e(p.service_code.join(','))},` +
        `${e(p.billing_code_modifier.join(','))},${t(p.expiration_date)},${t(p.setting)},${t(p.additional_information)}\n`);
    }
    this.priceRows += rate.prices.length * Math.max(1, ids.length);
  }

  /** One `raw_groups` row per provider; a remote or empty group has one row without provider. */
  group(groupId: string, p: MrfProvider | null, remote: string | null): void {
    this.files.raw_groups.add(`${this.sourceId},${e(groupId)},${t(p ? providerId(p.npi, p.tin_value) : null)},${t(p?.npi)},` +
      `${t(p?.tin_type)},${t(p?.tin_value)},${t(remote)}\n`);
  }

  /** Stores an inline provider group once per writer under an id derived from its content. */
  private inlineGroup(providers: MrfProvider[]): string {
    const key = providers.map((p) => `${p.npi ?? ''}|${p.tin_type}|${p.tin_value}`).sort().join(';');
    const id = INLINE_PREFIX + createHash('sha1').update(key).digest('hex').slice(0, 16);
    if (!this.inlineSeen.has(id)) {
      this.inlineSeen.add(id);
      for (const p of providers) this.group(id, p, null);
    }
    return id;
  }

  /** Flushes and closes every file; returns the paths of the files that have rows, by table. */
  close(): Partial<Record<(typeof RAW_TABLES)[number], string>> {
    const out: Partial<Record<(typeof RAW_TABLES)[number], string>> = {};
    for (const name of RAW_TABLES) {
      this.files[name].close();
      if (this.files[name].rows > 0) out[name] = this.files[name].path;
    }
    return out;
  }
}
