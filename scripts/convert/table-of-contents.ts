/**
 * Reads a table of contents (CMS table-of-contents schema, tic-format.md §3) and lists the
 * in-network files of every `reporting_structure[]`, each location resolved against the table's
 * own location as a browser resolves a link (contracts.md §1). Duplicates are listed once.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

export interface TocFile {
  /** The location as the table wrote it. */
  url: string;
  /** Resolved: a local path or an http(s) URL. */
  location: string;
}

interface TocJson {
  reporting_structure?: Array<{ in_network_files?: Array<{ location?: unknown }> }>;
}

/**
 * Lists the in-network files of the table of contents at `location` (a path or http(s) URL).
 * @throws Error naming `label` when the table cannot be read or is not a table of contents.
 */
export async function listTocFiles(location: string, label: string): Promise<TocFile[]> {
  const isUrl = /^https?:\/\//i.test(location);
  let text: string;
  try {
    if (isUrl) {
      const res = await fetch(location);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } else {
      text = await readFile(location, 'utf8');
    }
  } catch (e) {
    throw new Error(`${label}: cannot read table of contents (${(e as Error).message})`);
  }
  let toc: TocJson;
  try {
    toc = JSON.parse(text.replace(/^\uFEFF/, '')) as TocJson;
  } catch (e) {
    throw new Error(`${label}: table of contents is not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(toc.reporting_structure)) throw new Error(`${label}: missing required field reporting_structure`);
  const base = isUrl ? location : pathToFileURL(path.resolve(location)).href;
  const seen = new Map<string, TocFile>();
  for (const rs of toc.reporting_structure) {
    for (const f of rs.in_network_files ?? []) {
      if (typeof f.location !== 'string' || !f.location) continue;
      const resolved = new URL(f.location, base);
      const loc = resolved.protocol === 'file:' ? fileURLToPath(resolved) : resolved.href;
      if (!seen.has(loc)) seen.set(loc, { url: f.location, location: loc });
    }
  }
  return [...seen.values()];
}
