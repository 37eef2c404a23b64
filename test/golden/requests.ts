/**
 * The /api requests of the golden record (record.ts) and their answers by the data worker's logic
 * on Node (workers/data-service.ts on DuckDB-WASM's Node build: the code that ships). Every GET
 * route of contract/api/index.ts, each with its default query and variants a screen sends
 * (docs/screens.md): a state, a billing class, a category, a competitor, a snapshot,
 * `shared_providers=1`, a service, a provider, paging and sorts. The PUT routes are left out: they
 * write acknowledgements stamped with the clock. No acknowledgement is ever made, so the alerts'
 * `acknowledgedAt` stays null and their answers do not depend on the time.
 */
import { createHash } from 'node:crypto';
import type { ApiResponse } from '../../contract/api';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { createDataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';

/** The ids the requests use, chosen from the dataset by record.ts datasetFacts. */
export interface DatasetFacts {
  reference: string;
  /** A billing code with statistics of the reference insurer and a competitor. */
  code: string;
  /** Its category ('' when none). */
  category: string;
  /** A competitor with statistics of `code`. */
  competitor: string;
  /** A provider with a reference rate of `code` ('' when none). */
  provider: string;
  /** A two-letter state with per-state statistics. */
  state: string;
  /** The dataset's earliest snapshot `YYYY-MM`. */
  earliest: string;
  /** A comparison unit of `code` in the reference insurer's statistics, when it has one. */
  unit?: { billing_class: string; component: string; setting: string };
}

/** One GET request: path and query as the page sends them. */
export interface GoldenRequest {
  path: string;
  query: Record<string, string>;
}

/** The request list for a dataset with `f`, in the order it is answered (the worker keeps answers and rate rows between requests, as a page's session does). */
export function goldenRequests(f: DatasetFacts): GoldenRequest[] {
  const r = (path: string, query: Record<string, string> = {}): GoldenRequest => ({ path: `/api/${path}`, query });
  const code3 = f.code.slice(0, 3);
  const unit: Record<string, string> = f.unit ?? { billing_class: 'all' };
  const provider: Record<string, string> = f.provider ? { providers: f.provider } : {};
  return [
    r('insurers'),
    r('dataset'),
    r('coverage'),
    r('dashboard-figures'),
    r('dashboard-figures', { shared_providers: '1' }),
    r('overpayment-trend'),
    r('overpayment-trend', { shared_providers: '1' }),
    r('regional-comparison'),
    r('regional-comparison', { shared_providers: '1' }),
    r('regional-comparison', { snapshot: f.earliest }),
    r('regional-services', { state: f.state }),
    r('regional-services', { state: f.state, shared_providers: '1' }),
    r('regional-services', { state: f.state, snapshot: f.earliest }),
    r('regional-services-page', { state: f.state }),
    r('regional-services-page', { state: f.state, sort: 'service', direction: 'asc', offset: '20', limit: '20' }),
    r('regional-services-page', { state: f.state, q: code3, sort: 'your_price' }),
    r('regional-services-page', { state: f.state, sort: 'market_avg', direction: 'asc', shared_providers: '1' }),
    r('alerts'),
    r('alerts-page'),
    r('alerts-page', { offset: '20', limit: '20' }),
    r('service-pricing'),
    r('service-pricing', { limit: '50', offset: '0', sort: 'savings', only_overpaying: 'true' }),
    r('service-pricing', { limit: '25', offset: '25', sort: 'variance' }),
    r('service-pricing', { limit: '50', state: f.state, billing_class: 'professional' }),
    r('service-pricing', { limit: '50', billing_class: 'institutional', sort: 'overpayment' }),
    r('service-pricing', { category: f.category }),
    r('service-pricing', { competitors: f.competitor }),
    r('service-pricing', { snapshot: f.earliest }),
    r('service-pricing', { limit: '50', shared_providers: '1' }),
    r('service-pricing', { services: f.code }),
    r('service-pricing', { ...provider, services: f.code }),
    r('service-pricing', { limit: '50', ...provider, shared_providers: '1' }),
    // the stored bands of the default selection, then the rate rows' under another
    r('market-band', { services: f.code }),
    r('market-band', { services: f.code, state: f.state }),
    r('market-band', { services: f.code, snapshot: f.earliest }),
    r('market-band', { services: f.code, competitors: f.competitor }),
    r('market-band', { services: f.code, shared_providers: '1' }),
    r('service-names'),
    r('service-categories'),
    r('services-search'),
    r('services-search', { limit: '1' }),
    r('services-search', { q: code3, limit: '10' }),
    r('services-search', { q: f.code, limit: '100' }),
    r('providers'),
    r('providers', { limit: '1' }),
    r('providers', { q: f.provider.slice(0, 3), limit: '5' }),
    r('providers-for-service', { service_id: f.code, limit: '1' }),
    r('providers-for-service', { service_id: f.code, q: f.provider.slice(0, 3), limit: '10' }),
    r('providers-for-service', { service_id: f.code, q: f.provider, limit: '5' }),
    r('insurers-for-service', { service_id: f.code }),
    r('service-price-details', { service_id: f.code, provider_id: f.provider, insurer_id: f.reference }),
    r('service-price-details', { service_id: f.code, provider_id: f.provider, insurer_id: f.competitor }),
    r('rate-rows', { service_id: f.code, insurer_id: f.reference }),
    r('rate-rows', { service_id: f.code, insurer_id: f.reference, ...unit }),
    r('rate-rows', { service_id: f.code, insurer_id: f.reference, ...unit, ...provider }),
    r('rate-rows', { service_id: f.code, insurer_id: f.reference, ...unit, shared_providers: '1' }),
    r('rate-rows', { service_id: f.code, insurer_id: f.competitor, state: f.state }),
    r('rate-rows', { service_id: f.code, insurer_id: f.competitor, snapshot: f.earliest, billing_class: 'professional' }),
  ];
}

/** The record's key of a request: `${path}?${query sorted by name}`. */
export function requestKey(req: GoldenRequest): string {
  const entries = Object.entries(req.query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${req.path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * Fields of an answer that are not figures of the dataset: `/api/dataset`'s data URL (`name`, a
 * temporary directory), its `created_at` (the time of the conversion), `converter_version`, and
 * `bytes_read` and `loaded_codes` (what the requests before it happened to load, and Parquet byte
 * sizes); `/api/coverage`'s `created_at` and `converter_version`.
 */
const VOLATILE: Record<string, readonly string[]> = {
  '/api/dataset': ['name', 'created_at', 'converter_version', 'bytes_read', 'loaded_codes'],
  '/api/coverage': ['created_at', 'converter_version'],
};

/** The answer's body with the VOLATILE fields of its route removed (first-view.json's answers too). */
export function stableBody(path: string, res: ApiResponse): unknown {
  const drop = VOLATILE[path];
  if (!drop || res.status !== 200 || typeof res.body !== 'object' || res.body === null) return res.body;
  return Object.fromEntries(Object.entries(res.body).filter(([k]) => !drop.includes(k)));
}

/**
 * Boots the data service on `dir` (acknowledgements in memory) and answers goldenRequests(facts)
 * one after the other; key (requestKey) to `${status}:${SHA-256 of mask(JSON.stringify(body))}`.
 * @throws when the service does not boot.
 */
export async function answerHashes(dir: string, facts: DatasetFacts, mask: (json: string) => string): Promise<Record<string, string>> {
  const service = createDataService(nodePlatform, { acks: memoryAckStore() });
  try {
    const state = await service.init({ dataUrl: dir + '/' });
    if (state.status !== 'ready') throw new Error(`golden: the data service did not boot on ${dir}: ${JSON.stringify(state)}`);
    const answers: Record<string, string> = {};
    for (const req of goldenRequests(facts)) {
      const key = requestKey(req);
      // a variant equal to another (a dataset without a provider for the code) is answered once
      if (key in answers) continue;
      const res = await service.handle({ method: 'GET', path: req.path, query: req.query });
      const json = mask(JSON.stringify(stableBody(req.path, res)) ?? 'undefined');
      answers[key] = `${res.status}:${createHash('sha256').update(json).digest('hex')}`;
    }
    return answers;
  } finally {
    await service.close();
  }
}
