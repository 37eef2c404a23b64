/** Reading `manifest.json` (contracts.md §3, contract/dataset.ts DatasetManifest). */
import { DATASET_FORMAT, DATASET_FORMAT_VERSION, TABLE_NAMES, type DatasetManifest } from '../contract/dataset';

/** Parses and checks manifest.json: format, version, every table, insurers, snapshots. @throws Error naming the problem. */
export function parseManifest(bytes: Uint8Array): DatasetManifest {
  let m: Partial<DatasetManifest>;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes)) as Partial<DatasetManifest>;
  } catch {
    throw new Error('manifest.json is not valid JSON');
  }
  if (m === null || typeof m !== 'object' || m.format !== DATASET_FORMAT || m.format_version !== DATASET_FORMAT_VERSION) {
    throw new Error(
      `unsupported dataset: format ${String(m?.format)} version ${String(m?.format_version)} (expected ${DATASET_FORMAT} ${DATASET_FORMAT_VERSION})`,
    );
  }
  for (const t of TABLE_NAMES) if (!m.tables?.[t]) throw new Error(`manifest.json lists no table ${t}`);
  if (!Array.isArray(m.insurers) || !Array.isArray(m.snapshots) || !m.reference_insurer || !Array.isArray(m.sources)) {
    throw new Error('manifest.json lacks insurers, snapshots, sources or reference_insurer');
  }
  return m as DatasetManifest;
}
