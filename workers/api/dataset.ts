/** `GET /api/dataset`: which dataset answers (origin or local, created when, snapshots, bytes read). */
import type { DatasetInfo } from '../../contract/api';
import type { Endpoint } from './endpoint';

export const dataset: Endpoint<'GET /api/dataset'> = {
  route: 'GET /api/dataset',
  reads: 'first-tables',
  parse: () => ({}),
  run: (_params, { manifest, dataset: d, rates }): DatasetInfo => ({
    origin: d.origin,
    name: d.name,
    created_at: manifest.created_at,
    converter_version: manifest.converter_version,
    snapshots: manifest.snapshots,
    reference_insurer: manifest.reference_insurer,
    insurers: manifest.insurers.length,
    rate_rows: manifest.counts.rate_rows,
    bytes_read: d.bytesRead(),
    loaded_codes: rates.loadedCodes(),
  }),
};
