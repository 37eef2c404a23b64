/**
 * Per-file progress of the converter: a cli-progress bar (bytes read of total, rate, ETA) on a
 * terminal; nothing otherwise (the converter prints one summary line per file instead).
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Bytes of the input read so far, and its size when known. */
  update(done: number, total: number | null): void;
  stop(): void;
}

const MB = 1e6;

/**
 * A progress display for one file; silent when `quiet` or when `stream` (default stderr) is not a
 * terminal. On a terminal: `<file> [bar] 42% | 12.0/28.5 MB | 35.1 MB/s | ETA 1s` (MB = 10^6 bytes).
 */
export function makeProgress(label: string, quiet: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (quiet || !stream.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `{label} [{bar}] {percentage}% | {doneMb}/{totalMb} MB | {rate} MB/s | ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const start = Date.now();
  let started = false;
  const name = label.length > 40 ? '…' + label.slice(-39) : label;
  return {
    update(done, total) {
      const payload = {
        label: name,
        doneMb: (done / MB).toFixed(1),
        totalMb: total ? (total / MB).toFixed(1) : '?',
        rate: (done / MB / Math.max(0.001, (Date.now() - start) / 1000)).toFixed(1),
      };
      if (!started) {
        bar.start(total ?? Math.max(done, 1), done, payload);
        started = true;
      } else {
        if (total) bar.setTotal(total);
        bar.update(done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
