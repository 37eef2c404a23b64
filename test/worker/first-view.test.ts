/**
 * The first view (contract/files/first-view.ts): the converter writes `first-view.json` beside the tables,
 * and every answer it holds is the one the data service gives on the whole dataset (every boot
 * table loaded, as in the browser), byte for byte once serialised. The page's lookup
 * (src/api/first-view.ts) finds exactly the live screens' default requests.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_VIEW_FILE, firstViewBandRequest, firstViewRequests, parseFirstView, type FirstView } from '../../contract/files/first-view';
import type { LiveInsurer, ServicePricingResult } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import { indexFirstView } from '../../src/api/first-view';
import { bootStrictAndLoose } from './fixture-dataset';

const fx = bootStrictAndLoose();

async function firstViewOf(dir: string): Promise<FirstView> {
  const view = parseFirstView(await readFile(join(dir, FIRST_VIEW_FILE), 'utf8'));
  expect(view).not.toBeNull();
  return view!;
}

describe('first-view.json', () => {
  it('holds the worker\'s own answer to each of the live screens\' default requests, for the manifest it was written with', async () => {
    for (const at of [fx.strict, fx.loose]) {
      const view = await firstViewOf(at.dir);
      const manifest = JSON.parse(await readFile(join(at.dir, 'manifest.json'), 'utf8')) as DatasetManifest;
      expect(view.created_at).toBe(manifest.created_at);
      const insurers = (await at.get('/api/insurers', {})).body as LiveInsurer[];
      const requests = firstViewRequests(insurers);
      // then the market bands of the comparison's first page at every provider (those at shared ones are not stored)
      const bands = view.answers.filter((a) => a.path === '/api/service-pricing')
        .flatMap((a) => firstViewBandRequest(a.query, (a.body as ServicePricingResult).records) ?? []);
      expect(bands.length).toBe(1);
      expect(view.answers.map((a) => [a.path, a.query])).toEqual([...requests, ...bands].map((r) => [r.path, r.query]));
      // the alerts alone depend on what the browser stores
      expect(view.answers.filter((a) => a.requires_no_acknowledgements).map((a) => a.path)).toEqual(['/api/alerts-page']);
      for (const answer of view.answers) {
        const live = await at.get(answer.path, answer.query);
        expect(live.status).toBe(200);
        expect(JSON.stringify(answer.body), answer.path).toBe(JSON.stringify(live.body));
      }
    }
  });

  it('differs where the datasets differ: min_providers 1 counts the thin G0008 and makes it the top service', async () => {
    const top = (v: FirstView) => (v.answers[0]!.body as { kpis: { top: { service_code: string } | null } }).kpis.top?.service_code;
    expect(top(await firstViewOf(fx.strict.dir))).not.toBe('G0008');
    expect(top(await firstViewOf(fx.loose.dir))).toBe('G0008');
  });

  it('is looked up by GET, path and query, in any query order; other requests go to the worker', async () => {
    const index = indexFirstView(await firstViewOf(fx.strict.dir));
    expect(index.lookup({ method: 'GET', path: '/api/dashboard-figures', query: {} })?.status).toBe(200);
    expect(index.lookup({ method: 'get', path: '/api/insurers', query: {} })).toBeDefined();
    expect(index.lookup({ method: 'GET', path: '/api/dashboard-figures', query: { shared_providers: '1' } })).toBeUndefined();
    expect(index.lookup({ method: 'GET', path: '/api/alerts-page', query: {} })).toBeUndefined();
    expect(index.lookup({ method: 'PUT', path: '/api/insurers', query: {} })).toBeUndefined();
  });
});

describe('parseFirstView', () => {
  it('accepts only the format it names', () => {
    expect(parseFirstView('not json')).toBeNull();
    expect(parseFirstView('{"format":"compete-dataset","created_at":"x","answers":[]}')).toBeNull();
    expect(parseFirstView('{"format":"compete-first-view","created_at":"x","answers":[{"path":1}]}')).toBeNull();
    expect(parseFirstView('{"format":"compete-first-view","created_at":"x","answers":[]}')).toEqual({ format: 'compete-first-view', created_at: 'x', answers: [] });
  });
});
