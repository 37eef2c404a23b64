/**
 * Write failures that name the path. Node's error for a write on an open file ("ENOSPC: no space
 * left on device, write") names no path, and neither does one that crosses from a parser thread; a
 * full disk or quota then leaves the operator guessing which of the dataset, the work directory or
 * the store filled up. writingTo wraps a write site with its path; namedWriteFailure maps what
 * escapes to the top level to the directories the run was writing.
 */

/** The error codes of a write the file system refused (disk full, quota, permissions, read-only, not a directory). */
const WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'EFBIG', 'EIO', 'ENOTDIR', 'EISDIR']);

/** A write that failed, naming `path`; `code` is the system's (ENOSPC, EDQUOT, ...). */
export class WriteError extends Error {
  constructor(readonly path: string, readonly code: string, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'WriteError';
  }
}

/** The write-failure code of `e` (its `code`, else the `ENOSPC: ` its message starts with), or null. */
export function writeFailureCode(e: unknown): string | null {
  if (!(e instanceof Error) || e instanceof WriteError) return null;
  const code = (e as NodeJS.ErrnoException).code ?? /^([A-Z]+): /.exec(e.message)?.[1];
  return code !== undefined && WRITE_CODES.has(code) ? code : null;
}

/**
 * Runs `write`, a write of `target` (a file or the directory written into); a write failure
 * (WRITE_CODES) is rethrown as a WriteError `cannot write <target>: <system message>`.
 * @throws WriteError, or what `write` throws otherwise.
 */
export async function writingTo<T>(target: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    const code = writeFailureCode(e);
    if (code === null) throw e;
    throw new WriteError(target, code, `cannot write ${target}: ${(e as Error).message}`, e);
  }
}

/**
 * `e` unchanged, unless it is a write failure (WRITE_CODES) that names no path (no `path`, as for
 * a write on an open file or one from a parser thread): then a WriteError naming `dirs`, the
 * directories the run was writing when it failed (`what` says what each is).
 */
export function namedWriteFailure(e: unknown, dirs: ReadonlyArray<{ what: string; path: string }>): unknown {
  const code = writeFailureCode(e);
  if (code === null || (e as NodeJS.ErrnoException).path !== undefined) return e;
  const where = dirs.map((d) => `${d.what} ${d.path}`).join(', ');
  return new WriteError(dirs[0]?.path ?? '', code, `${(e as Error).message} (while writing ${where})`, e);
}
