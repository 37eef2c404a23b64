/**
 * The alert list's SQL pre-filter (workers/pricing/pricing-core.ts `alertCandidates`): pricing only
 * the codes where a unit could raise an alert gives the very list that pricing every unit gives
 * (contract/rules/alert-rules.ts evaluateAlerts), on a generated dataset whose prices move between its
 * two snapshots (bench/api-generate.ts: hundreds of price spikes and market shifts, per state and
 * national) and on the converted fixture (outliers too).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiDataset } from '../../bench/api-generate';
import { rankAlerts } from '../../workers/api/alerts';
import { EVERY_STATE, statsNeedOf } from '../../workers/pricing/pricing-core';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let root: string;
let generated: DataService;
let fixture: BootedFixture;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'compete-alert-candidates-'));
  await generateApiDataset(path.join(root, 'generated'), 60_000, { services: 400, providers: 3_000, allStates: true, minProviders: 1 });
  generated = createDataService(nodePlatform);
  expect((await generated.init({ dataUrl: path.join(root, 'generated') + '/' })).status).toBe('ready');
  fixture = await bootFixture({ validation: { min_providers: 1 } });
}, 300_000);

afterAll(async () => {
  await generated?.close();
  await fixture?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('alert candidates', () => {
  it('give the list every unit gives, on a dataset with hundreds of alerts', async () => {
    const ctx = generated.context()!;
    // what GET /api/alerts declares it reads when it computes the list
    await ctx.stats.ensure(statsNeedOf({ state: EVERY_STATE }, ctx.manifest.snapshots.slice(-2)));
    const every = rankAlerts(ctx, false);
    const types = new Set(every.map((a) => a.type));
    expect(every.length).toBeGreaterThan(500);
    // every rule raises some (the reference pays above the market for about half the codes)
    expect([...types].sort()).toEqual(['market_shift', 'outlier', 'price_spike']);
    expect(new Set(every.map((a) => a.region)).size).toBeGreaterThan(20);
    expect(rankAlerts(ctx, true)).toEqual(every);
  });

  it('give the list every unit gives on the converted fixture', async () => {
    const ctx = fixture.service.context()!;
    // what GET /api/alerts declares it reads when it computes the list
    await ctx.stats.ensure(statsNeedOf({ state: EVERY_STATE }, ctx.manifest.snapshots.slice(-2)));
    const every = rankAlerts(ctx, false);
    // 9 alerts of the three types, national and per state (alerts.test.ts computes them by hand)
    expect([...new Set(every.map((a) => a.type))].sort()).toEqual(['market_shift', 'outlier', 'price_spike']);
    expect(new Set(every.map((a) => a.region))).toEqual(new Set(['All', 'CA', 'NY']));
    expect(rankAlerts(ctx, true)).toEqual(every);
  });
});
