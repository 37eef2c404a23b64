/**
 * Whether this browser stores any alert acknowledgement, asked from the page without the data
 * worker: the first view's alerts (contract/files/first-view.ts `requires_no_acknowledgements`) are the
 * worker's answer with none, so they stand only while the worker's IndexedDB store
 * (workers/acks/ack-store.ts) is absent or empty.
 */
import { ACK_DATABASE, ACK_OBJECT_STORE } from '../../contract/api';

/**
 * Counts the acknowledgements in `ACK_DATABASE` without ever creating it: an open that would create
 * it is aborted in its upgrade, which leaves no database behind, so the worker's own open still
 * creates its store. Resolves false when there is no database or its store is empty, true when
 * something is stored or the count cannot be read (no IndexedDB, a blocked or failed open): the
 * worker then answers. Never rejects.
 */
export function acknowledgementsStored(factory: IDBFactory | null = globalThis.indexedDB ?? null): Promise<boolean> {
  if (!factory) return Promise.resolve(true);
  return new Promise((resolve) => {
    let created = false;
    let open: IDBOpenDBRequest;
    try {
      open = factory.open(ACK_DATABASE);
    } catch {
      resolve(true);
      return;
    }
    open.onupgradeneeded = () => {
      created = true;
      open.transaction?.abort();
    };
    open.onblocked = () => resolve(true);
    open.onerror = () => resolve(!created);
    open.onsuccess = () => {
      const db = open.result;
      try {
        if (!db.objectStoreNames.contains(ACK_OBJECT_STORE)) {
          resolve(false);
          return;
        }
        const count = db.transaction(ACK_OBJECT_STORE, 'readonly').objectStore(ACK_OBJECT_STORE).count();
        count.onsuccess = () => resolve(count.result > 0);
        count.onerror = () => resolve(true);
      } catch {
        resolve(true);
      } finally {
        db.close();
      }
    };
  });
}
