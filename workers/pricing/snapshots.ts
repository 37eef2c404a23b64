/**
 * Which snapshot each insurer contributes at month M (docs/methodology.md, Rows that count): its most recent
 * published snapshot (manifest `sources`) at or before M; an insurer with none is absent.
 */
import type { DatasetManifest } from '../../contract/files/dataset';
import { chosenSnapshots } from '../../contract/rules/metrics';
import { sql, type SqlFragment } from '../db/sql';

/** `insurer_id -> snapshot` for month `month` (`YYYY-MM`), over the manifest's sources (contract/rules/metrics.ts chosenSnapshots). */
export function sourceSnapshots(manifest: DatasetManifest, month: string): Map<string, string> {
  return chosenSnapshots(manifest.sources, month);
}

/** SQL condition: the rate row `alias` is of its insurer's chosen snapshot at `month`. */
export function chosenRows(manifest: DatasetManifest, month: string, alias: 'r'): SqlFragment {
  const pairs = [...sourceSnapshots(manifest, month)].map(([i, s]) => `${i}|${s}`);
  return alias === 'r' ? sql`(r.insurer_id || '|' || r.snapshot) IN (${pairs})` : sql`false`;
}
