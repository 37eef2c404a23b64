/**
 * How the converter's process is started (`npm run convert`, the benchmark): settings that must be
 * given before Node starts, so they cannot be set from code. package.json's `convert` script
 * carries the same ones (test/convert/runtime-flags.test.ts keeps the two together).
 */

/**
 * Node/V8 flags. `--initial-old-space-size=96` (MB): with DuckDB's native client loaded, V8 would
 * otherwise run a full mark-compact of the main thread's small heap every 50-100 ms while a file
 * streams (docs/converter.md, "Runtime flags"). The flag is the main thread's only: the parser
 * threads get V8's default back (parse-pool.ts), since with it each could hold more garbage.
 */
export const CONVERTER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=96'];

/**
 * Environment. `MALLOC_ARENA_MAX=2`: DuckDB's threads otherwise each grow a glibc malloc arena
 * whose freed memory stays resident and raises the peak RSS (docs/converter.md, "Runtime flags").
 */
export const CONVERTER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
