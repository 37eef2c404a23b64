/** What every endpoint handler receives: the loaded database and the dataset manifest. */
import type { DatasetManifest } from '../../contract/dataset';
import type { Database } from '../db/database';

export interface ApiContext {
  db: Database;
  manifest: DatasetManifest;
}
