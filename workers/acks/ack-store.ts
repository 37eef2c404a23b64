/**
 * Where alert acknowledgements live: IndexedDB (via `idb`) in the browser worker, so they survive a
 * reload and a new dataset with the same alerts (alert ids are stable, docs/methodology.md Alerts); memory
 * where no IndexedDB exists. Keyed by alert id.
 */
import { openDB, type DBSchema } from 'idb';
import { ACK_DATABASE, ACK_OBJECT_STORE } from '../../contract/api';

/** Who acknowledged an alert, and when (ISO 8601 UTC). */
export interface Acknowledgement {
  by: string;
  at: string;
}

export interface AckStore {
  /** Every acknowledgement, by alert id. */
  all(): Promise<Map<string, Acknowledgement>>;
  /**
   * How many acknowledgements are stored. Entries are only ever added (put keeps an existing one and
   * nothing deletes), so a size that has not changed means contents that have not changed: the
   * alerts endpoints key what they merged on it (workers/api/alerts.ts).
   */
  size(): Promise<number>;
  /** Stores acknowledgements (an existing one is kept: the first acknowledgement wins). */
  put(entries: ReadonlyArray<readonly [string, Acknowledgement]>): Promise<void>;
}

/** An in-memory store (tests, or a context without IndexedDB). */
export function memoryAckStore(): AckStore {
  const map = new Map<string, Acknowledgement>();
  return {
    all: async () => new Map(map),
    size: async () => map.size,
    async put(entries) {
      for (const [id, a] of entries) if (!map.has(id)) map.set(id, a);
    },
  };
}

interface AckDb extends DBSchema {
  acknowledgements: { key: string; value: Acknowledgement & { id: string } };
}

/** A store in IndexedDB database `name` (object store `acknowledgements`). */
export function indexedDbAckStore(name = ACK_DATABASE): AckStore {
  const db = openDB<AckDb>(name, 1, {
    upgrade(d) {
      d.createObjectStore(ACK_OBJECT_STORE, { keyPath: 'id' });
    },
  });
  return {
    async all() {
      const rows = await (await db).getAll('acknowledgements');
      return new Map(rows.map((r) => [r.id, { by: r.by, at: r.at }]));
    },
    async size() {
      return (await db).count('acknowledgements');
    },
    async put(entries) {
      const tx = (await db).transaction('acknowledgements', 'readwrite');
      for (const [id, a] of entries) {
        if (!(await tx.store.get(id))) await tx.store.put({ id, ...a });
      }
      await tx.done;
    },
  };
}

/** IndexedDB when the global exists (browser worker, or tests with fake-indexeddb), else memory. */
export function defaultAckStore(): AckStore {
  return typeof indexedDB === 'undefined' ? memoryAckStore() : indexedDbAckStore();
}
