/**
 * Reads a table of contents (CMS table-of-contents schema; docs/converter.md, What it reads, and what it does with bad input) for the converter:
 * streamed from disk or HTTP(S) through the container sniffing of the in-network files (plain,
 * gzip, zip) and the streaming index reader (scripts/mrf/toc-reader.ts); lists the in-network files
 * of every `reporting_structure[]`, each location resolved against the table's own location as a
 * browser resolves a link, duplicates once; keeps each structure's plans.
 *
 * A listed location leads to an http(s) URL or, from a table on disk only, to a relative or
 * absolute path. A location with another scheme (`file:`, `ftp:`, `data:` ...) is refused and
 * reported (`refused_location`): an index a publisher serves must not make the converter read the
 * machine's own files, and a `file:` URL in a local table is refused alike.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { openContainer } from '../../mrf/open-container';
import { readTableOfContents, type TocHeader, type TocReportingPlan } from '../../mrf/toc-reader';
import { MrfReadError, type MrfProblem } from '../../mrf/types';
import { isHttpUrl, statLocalFile } from './catalog';
import { describeFetchError, fetchStream, schemeRefusal, shownLocation, type FetchPolicy } from './fetch-policy';

/** Reporting plans kept per structure; the rest are only counted (an Anthem index lists millions). */
export const MAX_PLANS_PER_STRUCTURE = 1000;

export interface TocFile {
  /** The location as the table wrote it. */
  url: string;
  /** Resolved: a local path or an http(s) URL. */
  location: string;
  /** The distinct non-empty `description`s the table gives the file (publishers name the network there). */
  descriptions: string[];
}

/** What of a table of contents to follow (plan-filter.ts; null = everything). */
export interface TocSelection {
  /** A reporting structure is followed when one of its plans passes; its plans are then those that pass. */
  plan: ((plan: TocReportingPlan) => boolean) | null;
  /** A listed file is kept when its resolved location passes. */
  file: ((location: string) => boolean) | null;
}

/** One reporting structure followed: its plans (those the selection keeps) and the in-network files it lists (indices into `files`). */
export interface TocStructure {
  reporting_plans: TocReportingPlan[];
  /** Plans kept, including those beyond MAX_PLANS_PER_STRUCTURE. */
  plan_count: number;
  files: number[];
}

/** What a table of contents gives. */
export interface TocListing {
  header: TocHeader;
  files: TocFile[];
  structures: TocStructure[];
  /** Reporting structures in the table, followed or not. */
  structureCount: number;
  /** Tolerated problems (JSON path and byte offset in the decompressed index). */
  problems: MrfProblem[];
}

/**
 * The stored bytes of the table at `location`.
 * @throws MrfReadError naming `label` at offset 0: a missing path or one that is not a file (a
 *   directory), a failed fetch.
 */
async function open(location: string, label: string, policy: FetchPolicy): Promise<AsyncIterable<Uint8Array>> {
  if (!isHttpUrl(location)) {
    const found = await statLocalFile(location);
    if ('reason' in found) throw new MrfReadError(label, 0, `table of contents: ${found.reason}`);
    return createReadStream(location, { highWaterMark: 1 << 20 });
  }
  try {
    return (await fetchStream(location, policy)).body;
  } catch (e) {
    throw new MrfReadError(label, 0, `cannot fetch table of contents (${describeFetchError(e)})`);
  }
}

async function* buffers(input: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  for await (const u8 of input) yield Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

/**
 * Where listed location `written` leads, resolved against the table's own URL `base`: an http(s)
 * URL; a local path, for a relative or absolute path listed by a table on disk (`remote` false);
 * why it is refused, for a URL of another scheme (`file:` included); null for no URL nor path.
 */
export function resolveListed(written: string, base: string, remote: boolean): string | { refused: string } | null {
  const own = URL.canParse(written) ? new URL(written) : null;
  let resolved: URL;
  try {
    resolved = own ?? new URL(written, base);
  } catch {
    return null;
  }
  if (resolved.protocol === 'http:' || resolved.protocol === 'https:') return resolved.href;
  if (own || remote) return { refused: schemeRefusal(resolved.protocol) };
  // a path, resolved against the table's file: URL
  try {
    return fileURLToPath(resolved);
  } catch {
    return null;
  }
}

/**
 * Reads the table of contents at `location` (a path or http(s) URL).
 * @param label the name used in errors and problems (as the catalog wrote it)
 * @param tmpDir where a zipped index is spooled
 * @param selection the structures and files to follow (catalog filters); default all
 * @throws MrfReadError naming `label` and the byte offset when the table cannot be read (missing,
 *   not a file, a failed fetch), is not JSON, or is truncated.
 */
export async function readTocListing(
  location: string,
  label: string,
  policy: FetchPolicy,
  tmpDir?: string,
  selection: TocSelection = { plan: null, file: null },
): Promise<TocListing> {
  const isUrl = isHttpUrl(location);
  const base = isUrl ? location : pathToFileURL(path.resolve(location)).href;
  const seen = new Map<string, number>();
  const files: TocFile[] = [];
  const structures: TocStructure[] = [];
  const problems: MrfProblem[] = [];
  const input = await open(location, label, policy);
  let header: TocHeader;
  let structureCount = 0;
  try {
    const json = openContainer(label, buffers(input), { tmpDir });
    ({ header, structures: structureCount } = await readTableOfContents(label, json, (s) => {
      const keepPlan = selection.plan;
      const plans = keepPlan ? s.reporting_plans.filter((p) => keepPlan(p)) : s.reporting_plans;
      if (keepPlan && plans.length === 0) return;
      const indices: number[] = [];
      for (const [k, written] of s.in_network_files.entries()) {
        const where = `$.reporting_structure[${s.index}].in_network_files[${k}].location`;
        const loc = resolveListed(written, base, isUrl);
        if (loc === null) {
          problems.push({ code: 'invalid_field', path: where, offset: s.offset, message: `not a URL or path: ${shownLocation(written)}; skipped` });
          continue;
        }
        if (typeof loc !== 'string') {
          problems.push({ code: 'refused_location', path: where, offset: s.offset, message: `${shownLocation(written)} refused: ${loc.refused}; skipped` });
          continue;
        }
        if (selection.file && !selection.file(loc)) continue;
        let at = seen.get(loc);
        if (at === undefined) {
          at = files.push({ url: written, location: loc, descriptions: [] }) - 1;
          seen.set(loc, at);
        }
        const description = s.in_network_descriptions[k] ?? '';
        const described = files[at]!.descriptions;
        if (description && !described.includes(description)) described.push(description);
        if (!indices.includes(at)) indices.push(at);
      }
      if (selection.file && indices.length === 0) return;
      structures.push({ reporting_plans: plans.slice(0, MAX_PLANS_PER_STRUCTURE), plan_count: plans.length, files: indices });
    }, problems));
  } catch (e) {
    if (e instanceof MrfReadError) throw new MrfReadError(label, e.offset, `table of contents: ${e.reason}`);
    throw new MrfReadError(label, 0, `cannot read table of contents (${(e as Error).message})`);
  }
  return { header, files, structures, structureCount, problems };
}
