/**
 * `npm run fuzz -- --seconds N [--seed S]`: the MRF fuzz harness. It generates small valid
 * in-network files (v1 and v2 shapes, provider references, bundled codes, an item past a lowered
 * split threshold), mutates them (stray bytes, flipped bytes, truncation, keys written twice,
 * deleted brackets and quotes, extreme numbers, long strings, deep nesting, invalid UTF-8, U+001F
 * in a group id) and reads each with the converter's reading path in-process (read.ts), checking:
 * (a) no uncaught error and no hang, (b) one outcome whatever the chunking (plain and gzip),
 * (c) the fast and slow parse paths agree, (d) items the mutation did not touch are kept,
 * (e) item ids never repeat within a source, (f) with `in_network` twice, the last array's rows.
 * Prints the cases run, counts per mutation kind and each failure with its case seed; exit code 1
 * on any failure, 2 on a usage error.
 */
import { Command } from 'commander';
import { int, isProgram } from '../convert/cli/options';
import type { CaseResult } from './case';
import { MUTATION_KINDS, type MutationKind } from './mutate';
import { runFuzz, type FuzzReport } from './run';

/** One failing case as printed: seed, mutation, violations with the reads that show them. */
export function formatFailure(r: CaseResult): string {
  const lines = [`case seed ${r.seed}: [${r.kinds.join(', ')}] ${r.description}${r.splitBytes !== undefined ? ` (split threshold ${r.splitBytes} bytes)` : ''}`];
  for (const v of r.violations) lines.push(`  (${v.invariant}) ${v.detail}${v.reads.length > 0 ? ` [reads: ${v.reads.join(', ')}]` : ''}`);
  return lines.join('\n');
}

/** The report of a run as printed. */
export function formatReport(r: FuzzReport, rerun: string, kindsOption = ''): string {
  const lines = [`fuzz: seed ${r.seed}, ${r.cases} cases (${r.splitCases} with a lowered split threshold), ${r.failures.length} failing`];
  lines.push(`by mutation kind: ${Object.entries(r.perKind).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const byInvariant = new Map<string, number>();
  for (const f of r.failures) for (const inv of new Set(f.violations.map((v) => v.invariant))) byInvariant.set(inv, (byInvariant.get(inv) ?? 0) + 1);
  if (byInvariant.size > 0) lines.push(`failing cases by invariant: ${[...byInvariant].map(([k, n]) => `(${k}) ${n}`).join(', ')}`);
  for (const f of r.failures) lines.push(formatFailure(f));
  if (r.failures.length > 0) {
    lines.push(`reproduce the run: ${rerun}`);
    // a case's mutation is drawn from the kinds of its run: a replay needs the same --kinds
    lines.push(`reproduce one case: npm run fuzz -- --case ${r.failures[0]!.seed}${kindsOption}` +
      `${r.failures.length > 1 ? ` (or --case ${r.failures.map((f) => f.seed).slice(0, 5).join(',')}${kindsOption})` : ''}`);
  }
  return lines.join('\n');
}

function kindsOf(v: string | undefined): MutationKind[] | undefined {
  if (v === undefined) return undefined;
  const list = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const k of list) if (!(MUTATION_KINDS as readonly string[]).includes(k)) throw new Error(`invalid --kinds: ${k} (one of ${MUTATION_KINDS.join(', ')})`);
  return list as MutationKind[];
}

/** Runs the command line `argv` (without node and the script); returns the exit code. */
export async function runFuzzCli(argv: string[], out: (t: string) => void = (t) => void process.stdout.write(t),
  err: (t: string) => void = (t) => void process.stderr.write(t)): Promise<number> {
  const program = new Command('fuzz')
    .description('fuzz the converter\'s MRF reader with mutated generated files')
    .option('--seconds <n>', 'run cases for this many seconds')
    .option('--cases <n>', 'run this many cases')
    .option('--seed <s>', 'seed of the run (default: from the clock, printed)')
    .option('--case <seeds>', 'run only these case seeds (comma-separated), as printed by a failure')
    .option('--kinds <list>', `mutation kinds to draw from (default all: ${MUTATION_KINDS.join(',')})`)
    .option('--timeout <ms>', 'time-out of one case, ms (default 60000)')
    .option('--verbose', 'print every case')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: err });
  let opts: { seconds?: string; cases?: string; seed?: string; case?: string; kinds?: string; timeout?: string; verbose?: boolean };
  let seed: number;
  let kinds: MutationKind[] | undefined;
  let caseSeeds: number[] | undefined;
  try {
    program.parse(argv, { from: 'user' });
    opts = program.opts();
    seed = int('--seed', opts.seed, true) ?? Date.now() % 2 ** 31;
    kinds = kindsOf(opts.kinds);
    caseSeeds = opts.case?.split(',').map((s) => int('--case', s.trim(), true)!);
    if (opts.seconds === undefined && opts.cases === undefined && caseSeeds === undefined) throw new Error('give --seconds N, --cases N or --case S');
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    if (code !== undefined) return code === 0 ? 0 : 2;
    err(`fuzz: ${(e as Error).message}\n`);
    return 2;
  }
  const seconds = int('--seconds', opts.seconds);
  const cases = int('--cases', opts.cases);
  out(`fuzz: seed ${seed}${seconds !== undefined ? `, ${seconds} s` : ''}${cases !== undefined ? `, ${cases} cases` : ''}\n`);
  const report = await runFuzz({
    seed, ...(seconds !== undefined ? { seconds } : {}), ...(cases !== undefined ? { cases } : {}), ...(caseSeeds ? { caseSeeds } : {}),
    ...(kinds ? { kinds } : {}), ...(opts.timeout !== undefined ? { timeoutMs: int('--timeout', opts.timeout)! } : {}),
    onCase: (r) => {
      if (opts.verbose) out(`${r.violations.length > 0 ? 'FAIL' : 'ok  '} ${r.seed} [${r.kinds.join(', ')}] ${r.description}\n`);
    },
  });
  const rerun = `npm run fuzz -- --seed ${seed} --cases ${report.cases}${opts.kinds ? ` --kinds ${opts.kinds}` : ''}`;
  out(`${formatReport(report, rerun, opts.kinds ? ` --kinds ${opts.kinds}` : '')}\n`);
  return report.failures.length > 0 ? 1 : 0;
}

if (isProgram(import.meta.url)) {
  runFuzzCli(process.argv.slice(2)).then((code) => (process.exitCode = code), (e: unknown) => {
    process.stderr.write(`fuzz: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
}
