/**
 * Which snapshot each insurer contributes at month M (docs/methodology.md, Rows that count): its most recent
 * published snapshot (manifest `sources`) at or before M; an insurer with none is absent.
 */
import type { DatasetManifest } from '../../contract/dataset';
import { sql, type SqlFragment } from '../db/sql';

/** `insurer_id -> snapshot` for month `month` (`YYYY-MM`). */
export function chosenSnapshots(manifest: DatasetManifest, month: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of manifest.sources) {
    if (s.snapshot > month) continue;
    const cur = out.get(s.insurer_id);
    if (cur === undefined || s.snapshot > cur) out.set(s.insurer_id, s.snapshot);
  }
  return out;
}

/** SQL condition: the rate row `alias` is of its insurer's chosen snapshot at `month`. */
export function chosenRows(manifest: DatasetManifest, month: string, alias: 'r'): SqlFragment {
  const pairs = [...chosenSnapshots(manifest, month)].map(([i, s]) => `${i}|${s}`);
  return alias === 'r' ? sql`(r.insurer_id || '|' || r.snapshot) IN (${pairs})` : sql`false`;
}
