/** GET /api/insurers over the fixture dataset: the catalog's insurers as LiveInsurer (a catalog without `group`: each its own). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
});
afterAll(async () => f?.dispose());

it('lists the reference first, then by market share descending, shares in percent', async () => {
  const res = await f.get('/api/insurers', { ignored: "'; DROP TABLE services; --" });
  expect(res.status).toBe(200);
  // Catalog shares 0.28, 0.35, 0.07 -> 28, 35, 7 percent (0.07 x 100 = 7.000000000000001 in floating point).
  expect(res.body).toEqual([
    { id: 'ref', name: 'Reference Health', group: 'Reference Health', shortName: 'RefHealth', marketShare: 28, isReference: true },
    { id: 'alpha', name: 'Alpha Insurance', group: 'Alpha Insurance', shortName: 'Alpha', marketShare: 35, isReference: false },
    { id: 'beta', name: 'Beta Health Plan', group: 'Beta Health Plan', shortName: 'Beta', marketShare: 7, isReference: false },
  ]);
});
