/**
 * What the sample holds (docs/screens.md, Constants; docs/converter.md, The catalog), read back from the written files:
 * counts, valid NPIs, paths, and a market in which the reference insurer is above on most services.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSample } from '../../scripts/sample/index';
import { pricesByCode, rateRows, readCatalog, readInNetwork, referenceVariances, type CatalogJson, type Row } from './read-sample';

/** Independent NPI check (Luhn over 80840 + all ten digits must be 0 mod 10). */
function luhnOk(npi: string): boolean {
  const digits = `80840${npi}`.split('').map(Number).reverse();
  const sum = digits.reduce((acc, d, i) => acc + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return sum % 10 === 0;
}

const csv = (dir: string, file: string): Array<Record<string, string>> =>
  parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;

describe('sample content', () => {
  let root = '';
  let dir = '';
  let catalog: CatalogJson;
  const latest = new Map<string, Row[]>();
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sample-content-'));
    dir = join(root, 'sample');
    await generateSample(dir);
    catalog = readCatalog(dir);
    for (const ins of catalog.insurers) latest.set(ins.id, rateRows(readInNetwork(join(dir, ins.files[3]?.url ?? ''))));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('has the ten insurers, four snapshots each, and every catalog path exists', () => {
    expect(catalog.reference_insurer).toBe('anthem');
    expect(catalog.insurers.map((i) => i.id)).toEqual(['anthem', 'unitedhealth', 'kaiser', 'aetna', 'cigna', 'humana', 'bcbs', 'molina', 'centene', 'healthnet']);
    expect(catalog.insurers.find((i) => i.id === 'anthem')?.name).toBe('Anthem Blue Cross');
    const share = catalog.insurers.reduce((sum, i) => sum + i.market_share, 0);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(1);
    for (const ins of catalog.insurers) {
      expect(ins.files.map((f) => f.snapshot)).toEqual(['2025-08', '2025-09', '2025-10', '2025-11']);
      for (const f of ins.files) {
        expect(existsSync(join(dir, f.url)), f.url).toBe(true);
        expect(readInNetwork(join(dir, f.url)).last_updated_on).toBe(`${f.snapshot}-01`);
      }
    }
    for (const p of [catalog.npi_registry, catalog.claims_volume, catalog.services]) expect(existsSync(join(dir, p)), p).toBe(true);
  });

  it('has 140 services: 5 named + 25 cardiac, 30 lab, 35 surgical, 20 radiology, 15 office, 10 emergency', () => {
    const services = csv(dir, 'services.csv');
    expect(Object.keys(services[0] ?? {})).toEqual(['billing_code', 'name', 'category', 'description', 'keywords']);
    expect(services).toHaveLength(140);
    expect(services.slice(0, 5).map((s) => s.billing_code)).toEqual(['99203', '70551', '45378', '71020', '85025']);
    const count = (cat: string): number => services.filter((s) => s.category === cat).length;
    // Generated counts plus the named codes of each category: 99203 office, 70551 + 71020 radiology,
    // 45378 surgical, 85025 lab.
    expect([count('Cardiac'), count('Lab'), count('Surgical'), count('Radiology'), count('Office visit'), count('Emergency')]).toEqual([25, 30 + 1, 35 + 1, 20 + 2, 15 + 1, 10]);
    expect(new Set(services.map((s) => s.billing_code)).size).toBe(140);
    expect(services.every((s) => s.name && s.description && (s.keywords ?? '').includes(';'))).toBe(true);
  });

  it('has exactly 118 NPIs with valid check digits, in at least CA NY TX FL IL and more', () => {
    const registry = csv(dir, 'npi-registry.csv');
    const cols = ['NPI', 'Entity Type Code', 'Provider Organization Name (Legal Business Name)', 'Provider Last Name (Legal Name)', 'Provider First Name', 'Provider Business Practice Location Address State Name', 'Provider Business Practice Location Address Postal Code', 'Healthcare Provider Taxonomy Code_1'];
    for (const c of cols) expect(Object.keys(registry[0] ?? {})).toContain(c);
    expect(readFileSync(join(dir, 'npi-registry.csv'), 'utf8').startsWith('"NPI","Entity Type Code"')).toBe(true);
    expect(registry).toHaveLength(118);
    expect(new Set(registry.map((r) => r.NPI)).size).toBe(118);
    for (const r of registry) expect(luhnOk(r.NPI ?? ''), r.NPI).toBe(true);
    const types = new Set(registry.map((r) => r['Entity Type Code']));
    expect(types).toEqual(new Set(['1', '2']));
    const states = new Set(registry.map((r) => r['Provider Business Practice Location Address State Name']));
    for (const s of ['CA', 'NY', 'TX', 'FL', 'IL']) expect(states.has(s)).toBe(true);
    expect(states.size).toBeGreaterThanOrEqual(8);
    // Every NPI of the files is in the registry, and every registry NPI is in some network.
    const inFiles = new Set([...latest.values()].flat().map((r) => r.provider).filter((p) => !p.startsWith('TIN:')));
    const all = new Set(registry.map((r) => r.NPI));
    for (const n of inFiles) expect(all.has(n), n).toBe(true);
    const everywhere = new Set<string>();
    for (const ins of catalog.insurers) for (const f of ins.files) for (const r of rateRows(readInNetwork(join(dir, f.url)))) everywhere.add(r.provider);
    for (const n of all) expect(everywhere.has(n ?? ''), n).toBe(true);
  });

  it('writes claims volume per code, state and billing provider, office visits above MRI', () => {
    const claims = csv(dir, 'claims-volume.csv');
    expect(Object.keys(claims[0] ?? {})).toEqual(['billing_code', 'claims_count', 'state', 'npi', 'tin']);
    // every row with a count names a provider of the registry (or a TIN), but where no provider of the state prices the code
    const registry = new Set(csv(dir, 'npi-registry.csv').map((r) => r.NPI));
    const named = claims.filter((c) => c.npi || c.tin);
    expect(named.length / claims.length).toBeGreaterThan(0.85);
    for (const c of claims) {
      expect(Number(c.claims_count), JSON.stringify(c)).toBeGreaterThanOrEqual(1);
      if (c.npi) expect(registry.has(c.npi), c.npi).toBe(true);
      else if (c.tin) expect(c.tin).toMatch(/^\d{2}-\d{7}$/);
    }
    const total = (code: string): number => claims.filter((c) => c.billing_code === code).reduce((s, c) => s + Number(c.claims_count), 0);
    expect(total('99213')).toBeGreaterThan(10 * total('70551'));
    expect(total('85025')).toBeGreaterThan(total('70551'));
  });

  it('has the shapes the converter must meet: classes, types, modifiers, decimal ids, TIN-only groups', () => {
    const rows = [...latest.values()].flat();
    const has = (f: (r: Row) => boolean): boolean => rows.some(f);
    expect(has((r) => r.billingClass === 'professional') && has((r) => r.billingClass === 'institutional') && has((r) => r.billingClass === 'both')).toBe(true);
    for (const t of ['negotiated', 'fee schedule', 'derived', 'percentage', 'per diem']) expect(has((r) => r.negotiatedType === t), t).toBe(true);
    expect(has((r) => r.key.endsWith('|26')) && has((r) => r.key.endsWith('|TC'))).toBe(true);
    expect(has((r) => r.provider.startsWith('TIN:'))).toBe(true);
    const anthem = gunzipSync(readFileSync(join(dir, catalog.insurers[0]?.files[3]?.url ?? ''))).toString('utf8');
    expect(anthem).toMatch(/"provider_group_id":\d+\.\d0,/); // a significant trailing zero, e.g. 12.50
    expect(anthem).toMatch(/"provider_references":\[\d+\.\d0[,\]]/);
  });

  it('puts anthem above the competitors mean on a majority of services, with gaps and price spikes', () => {
    const variances = referenceVariances(dir, '2025-11');
    const above = [...variances.values()].filter((v) => v > 0).length;
    expect(variances.size).toBeGreaterThan(120);
    expect(above / variances.size).toBeGreaterThan(0.5);
    expect(above / variances.size).toBeLessThan(0.75);
    expect(Math.max(...variances.values())).toBeLessThan(31);
    // Average Overpayment (docs/methodology.md: claims-weighted mean of the variances) inside the dashboard's
    // 8-20 % trend axis, in every snapshot.
    const claims = new Map<string, number>();
    for (const c of csv(dir, 'claims-volume.csv')) claims.set(c.billing_code ?? '', (claims.get(c.billing_code ?? '') ?? 0) + Number(c.claims_count));
    for (const snapshot of ['2025-08', '2025-09', '2025-10', '2025-11']) {
      let sum = 0;
      let weight = 0;
      for (const [code, v] of referenceVariances(dir, snapshot)) {
        sum += v * (claims.get(code) ?? 0);
        weight += claims.get(code) ?? 0;
      }
      expect(sum / weight, snapshot).toBeGreaterThan(8);
      expect(sum / weight, snapshot).toBeLessThan(20);
    }
    // Some services lack a reference price, some lack competitors.
    const ref = pricesByCode(latest.get('anthem') ?? []);
    const competitors = new Set([...latest].filter(([id]) => id !== 'anthem').flatMap(([, rows]) => [...pricesByCode(rows).keys()]));
    expect([...competitors].some((c) => !ref.has(c))).toBe(true);
    expect([...ref.keys()].some((c) => !competitors.has(c))).toBe(true);
    // Anthem raised some national prices by more than 10 % from 2025-10 to 2025-11.
    const before = pricesByCode(rateRows(readInNetwork(join(dir, catalog.insurers[0]?.files[2]?.url ?? ''))));
    const spikes = [...ref].filter(([code, p]) => (before.get(code) ?? Infinity) * 1.1 < p);
    expect(spikes.length).toBeGreaterThanOrEqual(3);
  });
});
