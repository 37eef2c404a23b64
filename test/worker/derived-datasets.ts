/**
 * The two datasets the tests of the derived tables read (alerts-table.test.ts,
 * unit-pivot-table.test.ts): the converted fixture (test/fixtures/api) and the market-year shape at
 * its tiny size (scripts/generate: three monthly snapshots, providers shared with the reference),
 * made once per test file in a scratch directory (the market-year shape a copy of the test run's:
 * test/datasets-once.ts); the data services `boot` opens are closed and
 * the directories removed after the file's tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { sharedShape } from '../datasets-once';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { convertFixture, type FixtureOptions } from './fixture-dataset';

export interface DerivedDatasets {
  /** The scratch directory (set once the datasets are made): copies go inside it. */
  root: string;
  /** Each dataset's directory. */
  dirs: Record<'fixture' | 'marketYear', string>;
  /** A data service (acknowledgements in memory) booted on `dir`, which must answer ready. */
  boot(dir: string): Promise<DataService>;
}

/** Registers the hooks that make the datasets (`prefix` names the scratch directory) and clean up. */
export function derivedDatasets(prefix: string, fixture: FixtureOptions = {}): DerivedDatasets {
  const open: DataService[] = [];
  const sets: DerivedDatasets = {
    root: '',
    dirs: { fixture: '', marketYear: '' },
    async boot(dir) {
      const service = createDataService(nodePlatform, { acks: memoryAckStore() });
      open.push(service);
      const state = await service.init({ dataUrl: dir + '/' });
      expect(state.status, JSON.stringify(state)).toBe('ready');
      return service;
    },
  };
  beforeAll(async () => {
    sets.root = await mkdtemp(path.join(tmpdir(), `compete-${prefix}-`));
    sets.dirs.marketYear = path.join(sets.root, 'market-year');
    const [converted] = await Promise.all([convertFixture(fixture), sharedShape('market-year', sets.dirs.marketYear, { tiny: true })]);
    sets.dirs.fixture = converted.dir;
  }, 300_000);
  afterAll(async () => {
    for (const s of open) await s.close();
    if (sets.root) await rm(sets.root, { recursive: true, force: true });
    if (sets.dirs.fixture) await rm(path.dirname(sets.dirs.fixture), { recursive: true, force: true });
  });
  return sets;
}
