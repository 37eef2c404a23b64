/**
 * Settings every DuckDB connection of the worker runs first: DuckDB must never try to reach a
 * host (docs/architecture.md). With these, a query needing an extension fails at once with a clear
 * message instead of hanging on a download.
 */
import { sql } from './sql';
import type { Database } from './database';

/** Applies the offline settings. @throws DatabaseError */
export function applyOfflineSettings(db: Database): void {
  db.exec(sql`SET autoinstall_known_extensions = false`);
  db.exec(sql`SET autoload_known_extensions = false`);
}
