/**
 * Test helper: reads the generated in-network files back, independently of the generator, and
 * computes the docs/methodology.md figures the tests check (one row per provider, dollar types only).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** A rate row as docs/methodology.md defines it (the subset the tests need). */
export interface Row {
  code: string;
  provider: string;
  billingClass: string;
  negotiatedType: string;
  rate: number;
  key: string;
}

interface ProviderGroupJson { npi: number[]; tin: { type: string; value: string } }
interface PriceJson { negotiated_type: string; negotiated_rate: number; billing_class: string; service_code?: string[]; billing_code_modifier?: string[] }
interface RateJson { provider_references?: number[]; provider_groups?: ProviderGroupJson[]; negotiated_prices: PriceJson[] }
export interface InNetworkJson {
  version: string;
  last_updated_on: string;
  provider_references?: Array<{ provider_group_id: number; provider_groups: ProviderGroupJson[] }>;
  in_network: Array<{ billing_code: string; billing_code_type: string; negotiated_rates: RateJson[] }>;
}

/** Parses a gzip-compressed in-network file. */
export function readInNetwork(path: string): InNetworkJson {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as InNetworkJson;
}

/** Providers of a group: its NPIs, or `TIN:<digits>` for `npi: [0]` (docs/methodology.md "Rows that count"). */
function providersOf(g: ProviderGroupJson): string[] {
  const npis = g.npi.filter((n) => n !== 0).map(String);
  return npis.length ? npis : [`TIN:${g.tin.value.replace(/\D/g, '')}`];
}

/** All rate rows of a file, identical rows counted once. */
export function rateRows(file: InNetworkJson): Row[] {
  const refs = new Map<number, ProviderGroupJson[]>();
  for (const r of file.provider_references ?? []) refs.set(r.provider_group_id, r.provider_groups);
  const rows = new Map<string, Row>();
  for (const item of file.in_network) {
    for (const nr of item.negotiated_rates) {
      const groups = nr.provider_groups ?? (nr.provider_references ?? []).flatMap((id) => refs.get(id) ?? []);
      const providers = new Set(groups.flatMap(providersOf));
      for (const p of nr.negotiated_prices) {
        for (const provider of providers) {
          const key = [item.billing_code, provider, p.billing_class, p.negotiated_type, p.negotiated_rate, (p.service_code ?? []).join(','), (p.billing_code_modifier ?? []).join(',')].join('|');
          rows.set(key, { code: item.billing_code, provider, billingClass: p.billing_class, negotiatedType: p.negotiated_type, rate: p.negotiated_rate, key });
        }
      }
    }
  }
  return [...rows.values()];
}

export function median(values: number[]): number {
  const v = values.slice().sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2;
}

const DOLLAR = new Set(['negotiated', 'fee schedule', 'derived']);

/** price(s, i) of docs/methodology.md for every code of one file: median of dollar rates > 0. */
export function pricesByCode(rows: readonly Row[]): Map<string, number> {
  const by = new Map<string, number[]>();
  for (const r of rows) {
    if (!DOLLAR.has(r.negotiatedType) || !(r.rate > 0)) continue;
    const list = by.get(r.code) ?? [];
    list.push(r.rate);
    by.set(r.code, list);
  }
  return new Map([...by].map(([code, rates]) => [code, median(rates)]));
}

/** catalog.json of a sample directory, as the tests read it. */
export interface CatalogJson {
  reference_insurer: string;
  insurers: Array<{ id: string; name: string; market_share: number; files: Array<{ snapshot: string; url: string }> }>;
  npi_registry: string;
  claims_volume: string;
  services: string;
}

export function readCatalog(dir: string): CatalogJson {
  return JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as CatalogJson;
}

/**
 * reference_variance per code (docs/methodology.md "Per comparison unit") in snapshot `snapshot`, national, both
 * billing classes: 100 x (reference price - market average) / market average.
 */
export function referenceVariances(dir: string, snapshot: string): Map<string, number> {
  const catalog = readCatalog(dir);
  const prices = new Map<string, Map<string, number>>();
  for (const ins of catalog.insurers) {
    const f = ins.files.find((x) => x.snapshot === snapshot);
    if (f) prices.set(ins.id, pricesByCode(rateRows(readInNetwork(join(dir, f.url)))));
  }
  const ref = prices.get(catalog.reference_insurer) ?? new Map<string, number>();
  const out = new Map<string, number>();
  for (const [code, own] of ref) {
    const others = [...prices].filter(([id]) => id !== catalog.reference_insurer).map(([, m]) => m.get(code)).filter((v): v is number => v !== undefined);
    if (others.length === 0) continue;
    const market = others.reduce((a, b) => a + b, 0) / others.length;
    out.set(code, (100 * (own - market)) / market);
  }
  return out;
}
