/**
 * The converter's phase timings (`--timings`): each phase's wall seconds and the CPU seconds of the
 * whole process over it (every thread: the parser threads and DuckDB's run inside this process),
 * so a profile can tell a phase that waits from one that computes.
 */
import { performance } from 'node:perf_hooks';

/** One phase as measured: its name, wall and CPU seconds (user + system, every thread of the process). */
export interface PhaseTiming {
  phase: string;
  wallSeconds: number;
  cpuSeconds: number;
}

/**
 * Records phases in the order they first end; a phase run again (one per partition) adds to its
 * entry, and a phase that throws is recorded too.
 */
export class PhaseTimer {
  readonly phases: PhaseTiming[] = [];
  private readonly startWall = performance.now();
  private readonly startCpu = process.cpuUsage();

  /** Runs `work` as phase `phase` and records its wall and CPU seconds; returns (or throws) what `work` does. */
  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await work();
    } finally {
      const used = process.cpuUsage(cpu);
      const wallSeconds = (performance.now() - wall) / 1000;
      const cpuSeconds = (used.user + used.system) / 1e6;
      const known = this.phases.find((p) => p.phase === phase);
      if (known) {
        known.wallSeconds += wallSeconds;
        known.cpuSeconds += cpuSeconds;
      } else {
        this.phases.push({ phase, wallSeconds, cpuSeconds });
      }
    }
  }

  /** Wall and CPU seconds since the timer was made. */
  total(): PhaseTiming {
    const used = process.cpuUsage(this.startCpu);
    return { phase: 'total', wallSeconds: (performance.now() - this.startWall) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  }

  /** The phases and the total as aligned text lines: `phase  wall s  CPU s`. */
  lines(): string[] {
    const rows = [...this.phases, this.total()];
    const width = Math.max(5, ...rows.map((r) => r.phase.length));
    const head = `${'phase'.padEnd(width)}  ${'wall s'.padStart(8)}  ${'CPU s'.padStart(8)}`;
    return [head, ...rows.map((r) => `${r.phase.padEnd(width)}  ${r.wallSeconds.toFixed(2).padStart(8)}  ${r.cpuSeconds.toFixed(2).padStart(8)}`)];
  }
}
