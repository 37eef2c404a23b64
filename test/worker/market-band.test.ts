/**
 * `GET /api/market-band` over the stored bands (workers/api/market-band.ts): for the comparison's
 * default selection (every competitor, every provider, neither option) the endpoint answers from
 * `price_stats` rows of scope `market_band` (scripts/convert/build/stats/market-bands.ts), without reading a
 * rate row; those must be the bands the rate rows give (provider-prices.ts marketBand, the path of
 * every other selection), to the last bit, at every month, nationally and in every state.
 * Dataset: test/fixtures/api converted (three insurers, snapshots of different months, providers
 * in two states and one without a state).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketBandParams, MarketBandResult } from '../../contract/api';
import { isStoredBandSelection } from '../../contract/rules/market-band';
import { rateRowBands, storedBands } from '../../workers/api/market-band';
import { sql } from '../../workers/db/sql';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let fx: BootedFixture;

beforeAll(async () => {
  fx = await bootFixture();
  expect(fx.state.status).toBe('ready');
});

afterAll(async () => {
  await fx?.dispose();
});

describe('the stored market bands', () => {
  it('are those of the rate rows, at every month, nationally and per state, and read no rate row', async () => {
    const ctx = fx.service.context()!;
    const { manifest } = ctx;
    await ctx.laterTables;
    const codes = ctx.db.all<{ c: string }>(sql`SELECT DISTINCT billing_code AS c FROM services ORDER BY 1`).map((r) => r.c);
    const states = ctx.db.all<{ s: string }>(sql`SELECT DISTINCT state AS s FROM providers WHERE state IS NOT NULL ORDER BY 1`).map((r) => r.s);
    expect(states.length).toBeGreaterThan(1);
    const competitors = manifest.insurers.map((i) => i.id).filter((id) => id !== manifest.reference_insurer);
    const asked: Array<{ snapshot: string; state: string | undefined; stored: MarketBandResult['bands'] }> = [];
    for (const snapshot of manifest.snapshots) {
      for (const state of [undefined, ...states]) {
        // every competitor, in another order than the manifest's
        const query: Record<string, string> = { services: codes.join(','), snapshot, competitors: [...competitors].reverse().join(',') };
        if (state) query.state = state;
        const res = await fx.get('/api/market-band', query);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        asked.push({ snapshot, state, stored: (res.body as MarketBandResult).bands });
      }
    }
    expect(ctx.rates.loadedGroups(), 'the stored bands read no rate row').toBe(0);
    let compared = 0;
    for (const { snapshot, state, stored } of asked) {
      const p: MarketBandParams = { services: codes, ...(state ? { state } : {}) };
      expect(storedBands({ ...p, competitors }, ctx)).toBe(true);
      expect(stored, `${snapshot} ${state ?? 'ALL'}`).toEqual(await rateRowBands(p, snapshot, ctx));
      compared += stored.length;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('are left for the rate rows under any other selection', async () => {
    const ctx = fx.service.context()!;
    const [first] = ctx.manifest.insurers.filter((i) => i.id !== ctx.manifest.reference_insurer);
    const p: MarketBandParams = { services: ['99213'] };
    expect(storedBands(p, ctx)).toBe(true);
    expect(storedBands({ ...p, competitors: [first!.id] }, ctx)).toBe(false);
    expect(storedBands({ ...p, shared_providers: true }, ctx)).toBe(false);
    expect(storedBands({ ...p, billed: true }, ctx)).toBe(false);
    expect(storedBands({ ...p, providers: ['1234567893'] }, ctx)).toBe(false);
  });

  it('are those of every competitor, named in any order, and of no other set', () => {
    expect(isStoredBandSelection({}, ['b', 'c'])).toBe(true);
    expect(isStoredBandSelection({ competitors: ['c', 'b'] }, ['b', 'c'])).toBe(true);
    expect(isStoredBandSelection({ competitors: ['c', 'b', 'b'] }, ['b', 'c'])).toBe(true);
    expect(isStoredBandSelection({ competitors: ['b'] }, ['b', 'c'])).toBe(false);
    expect(isStoredBandSelection({ competitors: ['b', 'x'] }, ['b', 'c'])).toBe(false);
    expect(isStoredBandSelection({ competitors: ['b', 'c', 'x'] }, ['b', 'c'])).toBe(false);
  });
});
