/**
 * The benchmarks' generated datasets: scripts/generate/dataset.ts, re-exported for the benchmarks
 * (api.bench.ts, cold-start.bench.ts) and their tests.
 */
export { generateApiDataset, REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY, type GeneratedShape } from '../scripts/generate/dataset';
