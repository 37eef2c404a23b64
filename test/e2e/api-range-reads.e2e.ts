// Rate rows on demand in Debian's Chromium (docs/architecture.md): the worker reads the `rates` row
// groups of one billing code through HTTP range requests to /data/rates/..., answered 206 by the
// server, and answers /api/providers-for-service and /api/service-price-details from them.
//
// Expected answers, from test/fixtures/e2e (README.md there): 70551 is priced at provider group 2
// = NPI 1234567901 BAY CLINIC MEDICAL GROUP (CA) and group 3 = NPI 1234567919 HARBOR GENERAL
// HOSPITAL (NY) (names as npi-registry.csv writes them). At 1234567919: ref 612 (institutional,
// negotiated), alpha 480, beta 540 (fee schedule), so for ref there: Price 612, Reference Price =
// median(612) = 612, Market Average = (480 + 540) / 2 = 510.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { PriceDetail, ProvidersForService } from '../../contract/api';
import { launchBrowser, type Browser } from './browser';
import { signIn } from './screens-helpers';

const BOOT_TIMEOUT = 150_000;

const baseUrl = inject('baseUrl');
let browser: Browser;
let manifest: DatasetManifest;

/** Every response to a /data/rates/ request: its Range header, status and Content-Range. */
interface RateRead {
  path: string;
  range: string | null;
  status: number;
  contentRange: string | null;
}
const rateReads: RateRead[] = [];
/** Responses seen whose Range header is still being read (the record lands asynchronously). */
let pendingReads = 0;

/**
 * Waits until every rate read the page made has been recorded: no record pending and the count
 * unchanged for half a second (CDP reports responses a little after the page has them).
 */
async function readsSettled(): Promise<number> {
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    if (pendingReads === 0 && rateReads.length === last) return last;
    last = rateReads.length;
  }
}

beforeAll(async () => {
  manifest = JSON.parse(await readFile(join(inject('dataDir'), 'manifest.json'), 'utf8')) as DatasetManifest;
  browser = await launchBrowser();
  browser.context.on('response', (res) => {
    const path = new URL(res.url()).pathname;
    if (!path.startsWith('/data/rates/')) return;
    pendingReads++;
    void res
      .request()
      .headerValue('range')
      .then((range) => {
        rateReads.push({ path, range, status: res.status(), contentRange: res.headers()['content-range'] ?? null });
      })
      .finally(() => {
        pendingReads--;
      });
  });
  await signIn(browser.page, baseUrl);
  await browser.page.goto(new URL('dataset', baseUrl).href);
  await browser.page.getByTestId('dataset-origin').filter({ hasText: 'Server (/data/)' }).waitFor({ timeout: BOOT_TIMEOUT });
});

afterAll(async () => {
  await browser?.close();
});

/** GET an /api path through the page (the fetch interceptor hands it to the worker). */
async function api<T>(path: string): Promise<{ status: number; body: T }> {
  return browser.page.evaluate(async (p) => {
    const res = await fetch(p);
    return { status: res.status, body: await res.json() };
  }, path);
}

describe('rate row groups over HTTP range requests', () => {
  it('reads no rate row at boot', () => {
    expect(rateReads).toEqual([]);
  });

  it('loads the row groups of 70551 by range requests and lists its providers', async () => {
    const res = await api<ProvidersForService>('/api/providers-for-service?service_id=70551');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { id: '1234567901', name: 'BAY CLINIC MEDICAL GROUP', npi: '1234567901', state: 'CA' },
        { id: '1234567919', name: 'HARBOR GENERAL HOSPITAL', npi: '1234567919', state: 'NY' },
      ],
      total: 2,
    });
    await expect.poll(() => rateReads.length).toBeGreaterThanOrEqual(2); // footer, then row group(s)
    const files = new Map(manifest.tables.rates.files.map((f, i) => [`/data/${f}`, manifest.tables.rates.bytes[i]!]));
    for (const read of rateReads) {
      const size = files.get(read.path);
      expect(size, read.path).toBeDefined();
      // Every read is a range inside the file, answered 206 with that range.
      const m = /^bytes=(\d+)-(\d+)$/.exec(read.range ?? '');
      expect(m, JSON.stringify(read)).not.toBeNull();
      const [start, end] = [Number(m![1]), Number(m![2])];
      expect(end).toBeLessThan(size!);
      expect(read.status).toBe(206);
      expect(read.contentRange).toBe(`bytes ${start}-${end}/${size}`);
    }
  });

  it('answers the price details from the loaded rows, without reading them again', async () => {
    const before = await readsSettled();
    const res = await api<PriceDetail[]>('/api/service-price-details?service_id=70551&provider_id=1234567919&insurer_id=ref');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      providerName: 'HARBOR GENERAL HOSPITAL',
      insurerName: 'Reference Health',
      price: 612,
      price_unit: 'usd',
      referencePrice: 612,
      marketAverage: 510,
      billing_class: 'institutional',
      negotiated_type: 'negotiated',
    });
    expect(await readsSettled()).toBe(before);
  });

  it('made no uncaught error', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
