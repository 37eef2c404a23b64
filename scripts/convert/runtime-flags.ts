/**
 * How the converter's process is started (`npm run convert`, the benchmark): settings that must be
 * given before Node starts, so they cannot be set from code. package.json's `convert` script
 * carries the same ones (test/convert/runtime-flags.test.ts keeps the two together).
 */

/**
 * Node/V8 flags. `--initial-old-space-size=96` (MB): with DuckDB's native client loaded, V8 runs
 * a full mark-compact of the main thread's ~11 MB heap every 50-100 ms while it decompresses and
 * cuts the file (~60 per GB, most started by "external memory pressure" from the decompressed
 * chunks; why only with DuckDB loaded is not known). Starting the old generation at 96 MB leaves 4
 * per run, 1-4 CPU s less per GB (docs/converter.md, "Runtime flags"). The flag is the main
 * thread's only: the parser threads, whose isolates V8 configures when they start, get its default
 * back (parse-pool.ts), as with it each could hold ~100 MB more of garbage while it parses.
 */
export const CONVERTER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=96'];

/**
 * Environment. `MALLOC_ARENA_MAX=2`: DuckDB's threads otherwise each grow a glibc malloc arena
 * whose freed memory stays resident, ~60 MB of peak RSS on the 1 GB benchmark file (docs/converter.md, "Runtime flags").
 */
export const CONVERTER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
