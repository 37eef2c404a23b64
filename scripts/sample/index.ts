/**
 * The embedded sample: a deterministic, realistic Transparency in Coverage data set for Compete
 * (`npm run sample`). Writes into `<outDir>`:
 * - `catalog.json` (docs/converter.md, The catalog) naming everything below, reference insurer `anthem`;
 * - `mrf/<insurer>/<YYYY-MM-DD>_<insurer>_in-network-rates.json.gz`: 10 insurers x 4 monthly
 *   snapshots, each valid against the CMS schema of the version it claims (1.0.0, 1.3.1 or 2.0.0);
 * - `services.csv` (140 services, docs/screens.md (Constants)), `npi-registry.csv` (118 NPIs, NPPES layout),
 *   `claims-volume.csv` (the reference insurer's claims per code, state and billing provider).
 * Deterministic: seeded random numbers, no clock, gzip with mtime 0; two runs give identical bytes.
 * Comparable: for every service, every insurer (nationally and in each state) has at least twice as
 * many professional dollar rows as institutional ones and twice as many global professional rows as
 * 26/TC ones (class-balance.ts), so its all-classes median (docs/methodology.md) is a professional fee; in the
 * latest snapshot competitors sit within ±25 % of their mean (market-band.ts) and the reference
 * insurer 1-5 % below or 10-26 % above it (rate-model.ts). A few procedures carry competitors' ghost
 * rates at providers that bill nothing (ghost-rates.ts), which 'Where we bill it' leaves out.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Catalog } from '../../contract/files/catalog';
import { billingProviders, claimsVolumeCsv } from './claims';
import { REFERENCE_INSURER, SAMPLE_INSURERS, SNAPSHOTS } from './insurers';
import { inNetworkJson } from './mrf-json';
import { buildNetworks } from './networks';
import { sampleProviders } from './providers';
import { buildRateModel, snapshotPrices } from './rate-model';
import { registryCsv } from './registry';
import { sampleServices, servicesCsv } from './services';

/** Relative path (from the catalog) of one insurer's in-network file for a snapshot `YYYY-MM`. */
export function inNetworkPath(insurerId: string, snapshot: string): string {
  return `mrf/${insurerId}/${snapshot}-01_${insurerId}_in-network-rates.json.gz`;
}

/** Builds every file of the sample in memory: relative path -> bytes. Deterministic. */
export function buildSampleFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const services = sampleServices();
  const universe = sampleProviders();
  const networks = buildNetworks(SAMPLE_INSURERS, universe);
  const model = buildRateModel(SAMPLE_INSURERS, networks, services);
  const reference = SAMPLE_INSURERS.find((i) => i.id === REFERENCE_INSURER);
  if (!reference) throw new Error(`sample: reference insurer ${REFERENCE_INSURER} missing`);

  for (const ins of SAMPLE_INSURERS) {
    SNAPSHOTS.forEach((snapshot, snap) => {
      const json = inNetworkJson(ins, `${snapshot}-01`, networks.get(ins.id) ?? [], snapshotPrices(model, ins, snap));
      files.set(inNetworkPath(ins.id, snapshot), gzipSync(Buffer.from(json, 'utf8')));
    });
  }
  files.set('services.csv', Buffer.from(servicesCsv(services), 'utf8'));
  files.set('npi-registry.csv', Buffer.from(registryCsv(universe.providers), 'utf8'));
  const billers = billingProviders(model.templates.get(reference.id) ?? [], networks.get(reference.id) ?? []);
  files.set('claims-volume.csv', Buffer.from(claimsVolumeCsv(services, reference.regions, billers), 'utf8'));

  const catalog: Catalog = {
    reference_insurer: REFERENCE_INSURER,
    insurers: SAMPLE_INSURERS.map((i) => ({
      id: i.id,
      name: i.name,
      ...(i.group ? { group: i.group } : {}),
      short_name: i.shortName,
      market_share: i.marketShare,
      member_count: i.memberCount,
      regions: i.regions,
      files: SNAPSHOTS.map((snapshot) => ({ snapshot, url: inNetworkPath(i.id, snapshot) })),
    })),
    npi_registry: 'npi-registry.csv',
    claims_volume: 'claims-volume.csv',
    services: 'services.csv',
  };
  files.set('catalog.json', Buffer.from(JSON.stringify(catalog, null, 2) + '\n', 'utf8'));
  return files;
}

/**
 * Writes the sample into `outDir` (created; an older one is replaced). Writes first into
 * `<outDir>.tmp-<pid>` and renames it into place at the end, so a failed run leaves no half
 * sample. Returns the catalog path, the number of files and their total size in bytes (as stored,
 * i.e. gzip-compressed for the MRFs). Throws the underlying file-system error on failure.
 */
export async function generateSample(outDir: string): Promise<{ catalogPath: string; files: number; bytes: number }> {
  const target = resolve(outDir);
  const tmp = `${target}.tmp-${process.pid}`;
  const files = buildSampleFiles();
  await rm(tmp, { recursive: true, force: true });
  try {
    let bytes = 0;
    for (const [rel, data] of files) {
      const path = join(tmp, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
      bytes += data.length;
    }
    await rm(target, { recursive: true, force: true });
    await rename(tmp, target);
    return { catalogPath: join(target, 'catalog.json'), files: files.size, bytes };
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}
