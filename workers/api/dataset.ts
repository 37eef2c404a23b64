/** `GET /api/dataset`: which dataset answers (origin or local, created when, snapshots, bytes read). */
import type { DatasetInfo } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { DatasetOrigin } from '../context';
import type { Endpoint } from './endpoint';

/**
 * The answer of `GET /api/dataset` from the manifest, the dataset's origin and name, and the
 * number of billing codes whose rate rows are loaded (0 before the first tables are in).
 */
export function datasetInfo(manifest: DatasetManifest, d: DatasetOrigin, loadedCodes: number): DatasetInfo {
  return {
    origin: d.origin,
    name: d.name,
    created_at: manifest.created_at,
    converter_version: manifest.converter_version,
    snapshots: manifest.snapshots,
    reference_insurer: manifest.reference_insurer,
    insurers: manifest.insurers.length,
    rate_rows: manifest.counts.rate_rows,
    bytes_read: d.bytesRead(),
    loaded_codes: loadedCodes,
  };
}

export const dataset: Endpoint<'GET /api/dataset'> = {
  route: 'GET /api/dataset',
  reads: 'first-tables',
  parse: () => ({}),
  run: (_params, { manifest, dataset: d, rates }): DatasetInfo => datasetInfo(manifest, d, rates.loadedCodes()),
};
