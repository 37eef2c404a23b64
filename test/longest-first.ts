/**
 * A vitest sequencer that starts the longest test files first, so that no long file is left
 * running alone on one core at the end of a run. Vitest's own order puts files by their duration
 * in earlier runs, which a fresh clone (CI) does not have, and else by size, which says little of
 * a file's time; the files named here (their path's ending, longest first) go before all others,
 * which keep vitest's order. A file missing from the list only costs time, never a result.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer class (vitest's `sequence.sequencer`) that runs the files ending in `longest` first, in that order. */
export function longestFirst(longest: readonly string[]): typeof BaseSequencer {
  const rank = (spec: TestSpecification): number => {
    const i = longest.findIndex((end) => spec.moduleId.endsWith(end));
    return i < 0 ? longest.length : i;
  };
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      // stable: the groups vitest orders by (sequence.groupOrder) stay first, the unlisted files keep their order
      return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
    }
  };
}
