/**
 * Chart draws spread over the page's tasks: a table draws one small Observable Plot chart per row
 * (the live comparison's price strips, src/live/components/ConfidenceParts.tsx), about 5 ms each,
 * and drawn in the effects of one render they make one task of a quarter of a second, during which
 * the page answers no input. Queued here, they run in slices of SLICE_MS, each slice its own task.
 */

/** The longest a slice runs before it yields to the page, ms (a draw started in time finishes). */
const SLICE_MS = 12;

interface Job {
  draw: () => void;
  cancelled: boolean;
}

const queue: Job[] = [];
let scheduled = false;

function runSlice(): void {
  scheduled = false;
  const end = performance.now() + SLICE_MS;
  while (queue.length > 0 && performance.now() < end) {
    const job = queue.shift()!;
    if (!job.cancelled) job.draw();
  }
  schedule();
}

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setTimeout(runSlice, 0);
}

/**
 * Runs `draw` in a coming slice, after the draws queued before it; returns its cancel (for an
 * effect's clean-up: a chart replaced or unmounted before its turn is never drawn).
 */
export function drawSoon(draw: () => void): () => void {
  const job: Job = { draw, cancelled: false };
  queue.push(job);
  schedule();
  return () => {
    job.cancelled = true;
  };
}
