/** Reading `manifest.json` (docs/dataset.md, contract/files/dataset.ts DatasetManifest). */
import { DATASET_FORMAT, DATASET_FORMAT_VERSION, TABLE_NAMES, type DatasetManifest } from '../contract/files/dataset';

/**
 * Parses and checks manifest.json: format, version, every table, insurers, snapshots.
 * @throws Error naming the problem; a dataset of an older format version says to convert it again.
 */
export function parseManifest(bytes: Uint8Array): DatasetManifest {
  let m: Partial<DatasetManifest>;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes)) as Partial<DatasetManifest>;
  } catch {
    throw new Error('manifest.json is not valid JSON');
  }
  if (m === null || typeof m !== 'object' || m.format !== DATASET_FORMAT || m.format_version !== DATASET_FORMAT_VERSION) {
    const found = `unsupported dataset: format ${String(m?.format)} version ${String(m?.format_version)} (expected ${DATASET_FORMAT} ${DATASET_FORMAT_VERSION})`;
    const version = m?.format === DATASET_FORMAT ? Number(m.format_version) : NaN;
    if (version < DATASET_FORMAT_VERSION) {
      // An older converter's dataset: its tables lack what this app computes from (per-unit medians, validation, Medicare).
      throw new Error(`${found}: it was written by an older converter; convert it again with this version (npm run convert -- --catalog <catalog.json> --out <dataset-dir>)`);
    }
    if (version > DATASET_FORMAT_VERSION) throw new Error(`${found}: it was written by a newer converter; open it with the app of that version`);
    throw new Error(found);
  }
  for (const t of TABLE_NAMES) if (!m.tables?.[t]) throw new Error(`manifest.json lists no table ${t}`);
  if (!Array.isArray(m.insurers) || !Array.isArray(m.snapshots) || !m.reference_insurer || !Array.isArray(m.sources)) {
    throw new Error('manifest.json lacks insurers, snapshots, sources or reference_insurer');
  }
  return m as DatasetManifest;
}
