/**
 * mulberry32: a tiny deterministic pseudo-random generator, numbers in [0, 1). Shared by the
 * sample generator (scripts/sample), the benchmark's large-file generator (scripts/mrf) and the
 * app's fixed sample data (src/sample/data), so each produces the same output on every run.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
