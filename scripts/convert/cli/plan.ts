/**
 * `npm run plan -- --catalog <catalog.json> [--out <plan.json>] [--no-head] [--fetch-timeout <ms>]
 *   [--fetch-retries <n>] [--fetch-concurrency <n>]` (docs/converter.md, Plans): reads the catalog's
 * tables of contents with its filters and prints, per insurer and snapshot, the in-network files a
 * conversion would read after dedup, their distinct plans and their size (HEAD requests, unless
 * `--no-head`: then only local files have a size, and the plan needs no network beyond the tables
 * of contents), then the total. `--out` writes the plan as JSON (run-plan.ts RunPlan), atomically,
 * for `npm run convert -- --plan <plan.json>`. Exit 0 when planned, 1 with a one-line reason on
 * stderr otherwise.
 */
import { productLabel } from '../../../contract/rules/product';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { formatCount, formatSize } from '../../../contract/rules/format';
import { loadCatalog } from '../plan/catalog';
import { fetchPolicyOf, isProgram, withFetchOptions, type FetchOptions } from './options';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../plan/fetch-policy';
import { planFiles } from '../plan/plan-files';
import { ProblemLog } from '../common/problems';
import { planCountsOf, planSizes, runPlanOf, summarizePlan, type RunPlan } from '../plan/run-plan';

interface PlanCliOptions extends FetchOptions {
  catalog: string;
  out?: string;
  head: boolean;
}

/** The printed summary of `plan`: a line per insurer (with its product) and snapshot, then the total (`planCounts`: run-plan.ts planCountsOf). */
export function planReport(plan: RunPlan, listed: number, planCounts: ReadonlyMap<string, number>): string[] {
  const groups = summarizePlan(plan, planCounts);
  const rows = groups.map((g) => [g.insurer_id, g.product, g.snapshot ?? "file's month", formatCount(g.files), formatCount(g.plans), formatSize(g.bytes), formatCount(g.unknown)]);
  const head = ['insurer', 'product', 'snapshot', 'files', 'plans', 'known size', 'size unknown'];
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (r: string[]): string => r.map((c, k) => (k < 3 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join('  ').trimEnd();
  const total = groups.reduce((a, g) => ({ files: a.files + g.files, bytes: a.bytes + g.bytes, unknown: a.unknown + g.unknown }), { files: 0, bytes: 0, unknown: 0 });
  return [
    line(head),
    ...rows.map(line),
    `total: ${formatCount(total.files)} in-network files to read (${formatCount(listed)} listings before dedup), ${formatSize(total.bytes)} known` +
      (total.unknown ? `, ${formatCount(total.unknown)} of unknown size` : ''),
  ];
}

/**
 * Runs the plan command on `argv` (the arguments after the script name).
 * @param out where the summary goes (stdout); `err` where warnings and errors go (stderr)
 * @returns the exit code: 0 when planned (and written with --out), 1 otherwise.
 */
export async function runPlanCli(
  argv: string[],
  out: (text: string) => void = (t) => void process.stdout.write(t),
  err: (text: string) => void = (t) => void process.stderr.write(t),
  fetchPolicy: Partial<FetchPolicy> = {},
): Promise<number> {
  const program = withFetchOptions(new Command()
    .name('plan')
    .description("List the in-network files a conversion of the catalog would read, with their plans and sizes")
    .requiredOption('--catalog <file>', 'catalog JSON (docs/converter.md, The catalog)')
    .option('--out <file>', 'write the plan as JSON (for npm run convert -- --plan <file>)')
    .option('--no-head', 'ask no file size from the servers (offline; local files still have theirs)'), 'HEAD requests')
    .exitOverride()
    .configureOutput({ writeErr: err, writeOut: out });
  let opts: PlanCliOptions;
  let policy: FetchPolicy;
  try {
    program.parse(argv, { from: 'user' });
    opts = program.opts<PlanCliOptions>();
    policy = { ...DEFAULT_FETCH_POLICY, ...fetchPolicy, ...fetchPolicyOf(opts) };
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    err(`plan: ${(e as Error).message}\n`);
    return 1;
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-plan-'));
  try {
    const { catalog, baseDir, warnings } = await loadCatalog(opts.catalog);
    const problems = new ProblemLog();
    problems.warnings.push(...warnings);
    const reading = await planFiles(catalog, baseDir, problems, policy, tmp);
    const planDir = opts.out ? path.dirname(path.resolve(opts.out)) : process.cwd();
    const productOf = (id: string): string => {
      const ins = catalog.insurers.find((i) => i.id === id);
      return ins ? productLabel(ins.group, ins.name) : id;
    };
    const plan = runPlanOf(reading, planDir, productOf);
    const failed = await planSizes(plan, planDir, policy, opts.head);
    for (const w of problems.warnings) err(`warning: ${w}\n`);
    if (problems.total) err(`warning: ${formatCount(problems.total)} problems in the tables of contents (entries skipped); a conversion lists them in report.json\n`);
    for (const f of failed.slice(0, 5)) err(`warning: no size for ${f.url}: ${f.reason}\n`);
    if (failed.length > 5) err(`warning: no size for ${formatCount(failed.length - 5)} more files\n`);
    const listed = reading.tocs.reduce((a, t) => a + t.structures.reduce((b, s) => b + s.files.length, 0), 0) + reading.files.filter((f) => !f.tableOfContents).length;
    for (const l of planReport(plan, listed, planCountsOf(reading))) out(l + '\n');
    if (opts.out) {
      const target = path.resolve(opts.out);
      const part = `${target}.${process.pid}.part`;
      try {
        await writeFile(part, JSON.stringify(plan, null, 1) + '\n');
        await rename(part, target);
      } finally {
        await rm(part, { force: true });
      }
      out(`plan written to ${opts.out}\n`);
    }
    return 0;
  } catch (e) {
    err(`plan: ${((e as Error).message ?? String(e)).split('\n')[0]}\n`);
    return 1;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (isProgram(import.meta.url)) process.exit(await runPlanCli(process.argv.slice(2)));
