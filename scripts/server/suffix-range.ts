/**
 * Suffix byte ranges per RFC 9110 §14.1.2: `Range: bytes=-N` asks for the last N bytes, and for
 * the whole file when the file is shorter than N. @fastify/send answers the latter with 416 (its
 * parser computes a negative first byte and drops the range), and has no option to change that.
 * So a preHandler of the dataset's route rewrites such a header to `bytes=0-` once it knows the
 * file's size; send then does the rest as for any range (206, Content-Range, If-Range, ETag).
 * Every other Range reaches send as sent: `bytes=-0` (416), open and closed ranges, multiple ranges.
 */
import { stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { FastifyRequest } from 'fastify';

/** One suffix range and nothing else, spaced as @fastify/send's parser tolerates. */
const SUFFIX_RANGE = /^ *bytes= *- *(\d+) *$/;
/** A `..` segment: @fastify/send refuses such a path (403), so it is left alone here. */
const UP_PATH = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** N of a Range header that is exactly one suffix range `bytes=-N`, else null. */
export function suffixLength(range: string | undefined): number | null {
  const match = range === undefined ? null : SUFFIX_RANGE.exec(range);
  return match ? Number(match[1]) : null;
}

/**
 * The file a request URL names under `root` when served by @fastify/static at `prefix` (which
 * `decodeURI`s the rest of the path) and @fastify/send (which normalises it and joins it to
 * `root`); null when send would refuse it (a NUL byte, a `..` segment, a malformed escape).
 */
export function servedPath(root: string, prefix: string, url: string): string | null {
  const query = url.indexOf('?');
  let rest = url.slice(prefix.length, query === -1 ? url.length : query);
  if (!rest.startsWith('/')) rest = `/${rest}`;
  let decoded: string;
  try {
    decoded = decodeURI(rest);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(`.${sep}${decoded}`);
  if (UP_PATH.test(relative)) return null;
  const path = join(root, relative);
  return path.startsWith(`${root}${sep}`) ? path : null;
}

/**
 * The preHandler for the files of `root` served at `prefix`: a suffix range longer than the file
 * becomes `bytes=0-` (the whole file, 206), and is dropped for an empty file (200 with no bytes:
 * no Content-Range can describe a range of zero bytes). Stats the file only for such a request.
 */
export function fitSuffixRange(root: string, prefix: string): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const length = suffixLength(request.raw.headers.range);
    if (length === null || length === 0) return;
    const path = servedPath(root, prefix, request.raw.url ?? '');
    const info = path === null ? null : await stat(path).catch(() => null);
    if (!info?.isFile() || info.size >= length) return;
    if (info.size === 0) delete request.raw.headers.range;
    else request.raw.headers.range = 'bytes=0-';
  };
}
