/**
 * An ApiContext over a database a test filled by hand (no dataset directory): every table loaded,
 * no rate rows to fetch, acknowledgements in memory, an empty answer memo.
 */
import type { DatasetManifest } from '../../contract/files/dataset';
import { memoryAckStore } from '../../workers/acks/ack-store';
import type { ApiContext } from '../../workers/context';
import { ResultMemo } from '../../workers/memo';
import type { Database } from '../../workers/db/database';
import { MEMO_CAPACITY } from '../../workers/data-service';
import { eagerProviderGroups } from '../../workers/db/provider-groups';
import { eagerStats } from '../../workers/db/stats';

/** The context of `db` named `name` (in `GET /api/dataset`); `manifest` default `{}`. */
export function memoryContext(db: Database, name: string, manifest: DatasetManifest = {} as DatasetManifest): ApiContext {
  return {
    db,
    manifest,
    acks: memoryAckStore(),
    laterTables: Promise.resolve(),
    tableLoaded: () => Promise.resolve(),
    billingProviders: () => Promise.resolve(),
    memo: new ResultMemo(MEMO_CAPACITY),
    rates: { ensure: async () => {}, loadedGroups: () => 0, loadedCodes: () => 0 },
    stats: eagerStats(),
    providerGroups: eagerProviderGroups(),
    readDerived: () => Promise.reject(new Error('a database filled by hand has no derived table files')),
    dataset: { origin: 'local', name, bytesRead: () => 0 },
  };
}
