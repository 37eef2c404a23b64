/**
 * Reads a table of contents (CMS table-of-contents schema, tic-format.md §3) for the converter:
 * streamed from disk or HTTP(S) through the container sniffing of the in-network files (plain,
 * gzip, zip) and the streaming index reader (scripts/mrf/toc-reader.ts); lists the in-network files
 * of every `reporting_structure[]`, each location resolved against the table's own location as a
 * browser resolves a link (contracts.md §1), duplicates once; keeps each structure's plans.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { openContainer } from '../mrf/open-container';
import { readTableOfContents, type TocHeader, type TocReportingPlan } from '../mrf/toc-reader';
import { MrfReadError, type MrfProblem } from '../mrf/types';
import { describeFetchError, fetchStream, type FetchPolicy } from './fetch-policy';

/** Reporting plans kept per structure; the rest are only counted (an Anthem index lists millions). */
export const MAX_PLANS_PER_STRUCTURE = 1000;

export interface TocFile {
  /** The location as the table wrote it. */
  url: string;
  /** Resolved: a local path or an http(s) URL. */
  location: string;
}

/** One reporting structure: its plans and the in-network files it lists (indices into `files`). */
export interface TocStructure {
  reporting_plans: TocReportingPlan[];
  /** Plans listed, including those beyond MAX_PLANS_PER_STRUCTURE. */
  plan_count: number;
  files: number[];
}

/** What a table of contents gives. */
export interface TocListing {
  header: TocHeader;
  files: TocFile[];
  structures: TocStructure[];
  /** Tolerated problems (JSON path and byte offset in the decompressed index). */
  problems: MrfProblem[];
}

async function open(location: string, label: string, policy: FetchPolicy): Promise<AsyncIterable<Uint8Array>> {
  if (!/^https?:\/\//i.test(location)) return createReadStream(location, { highWaterMark: 1 << 20 });
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
 * Reads the table of contents at `location` (a path or http(s) URL).
 * @param label the name used in errors and problems (as the catalog wrote it)
 * @param tmpDir where a zipped index is spooled
 * @throws MrfReadError naming `label` and the byte offset when the table cannot be read, is not
 *   JSON, or is truncated.
 */
export async function readTocListing(location: string, label: string, policy: FetchPolicy, tmpDir?: string): Promise<TocListing> {
  const isUrl = /^https?:\/\//i.test(location);
  const base = isUrl ? location : pathToFileURL(path.resolve(location)).href;
  const seen = new Map<string, number>();
  const files: TocFile[] = [];
  const structures: TocStructure[] = [];
  const problems: MrfProblem[] = [];
  const input = await open(location, label, policy);
  let header: TocHeader;
  try {
    const json = openContainer(label, buffers(input), { tmpDir });
    ({ header } = await readTableOfContents(label, json, (s) => {
      const indices: number[] = [];
      for (const [k, written] of s.in_network_files.entries()) {
        let loc: string;
        try {
          const resolved = new URL(written, base);
          loc = resolved.protocol === 'file:' ? fileURLToPath(resolved) : resolved.href;
        } catch {
          problems.push({ code: 'invalid_field', path: `$.reporting_structure[${s.index}].in_network_files[${k}].location`, offset: s.offset, message: `not a URL or path: ${written}; skipped` });
          continue;
        }
        let at = seen.get(loc);
        if (at === undefined) {
          at = files.push({ url: written, location: loc }) - 1;
          seen.set(loc, at);
        }
        if (!indices.includes(at)) indices.push(at);
      }
      structures.push({ reporting_plans: s.reporting_plans.slice(0, MAX_PLANS_PER_STRUCTURE), plan_count: s.reporting_plans.length, files: indices });
    }, problems));
  } catch (e) {
    if (e instanceof MrfReadError) throw new MrfReadError(label, e.offset, `table of contents: ${e.reason}`);
    throw new MrfReadError(label, 0, `cannot read table of contents (${(e as Error).message})`);
  }
  return { header, files, structures, problems };
}
