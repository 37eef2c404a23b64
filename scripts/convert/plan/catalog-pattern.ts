/**
 * The catalog's patterns (`filters.plans.plan_name`, `filters.file_name`; docs/converter.md, The
 * catalog): RE2 syntax (https://github.com/google/re2/wiki/Syntax), searched case-insensitively
 * (Unicode simple case folding), run on re2js, a pure-JavaScript port of RE2.
 *
 * A catalog is input written by whoever runs the converter, and the texts it is matched against
 * (plan names, file names) come from a publisher's table of contents. JavaScript's own RegExp
 * backtracks: a pattern such as `^(\w+\s?)*HMO$` takes exponential time on a plan name that does
 * not match, and a run hangs on one table of contents. RE2 matches in time linear in the text,
 * at the price of the syntax that needs backtracking (backreferences, lookaround), which it
 * refuses when the catalog is checked.
 */
import { RE2JS, RE2JSException } from 're2js';

/** A compiled catalog pattern: whether it is found anywhere in `text`. */
export type PatternTest = (text: string) => boolean;

/** A pattern RE2 refuses; `reason` is RE2's, shown as printable text. */
export class PatternError extends Error {
  override name = 'PatternError';
  constructor(readonly pattern: string, readonly reason: string) {
    super(`${JSON.stringify(pattern)}: ${reason}`);
  }
}

/**
 * `text` with its control characters (C0, DEL, C1) written as `\uXXXX`, so that a message
 * quoting a catalog or a pattern writes no NUL, escape sequence or line break to a terminal.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- these are the characters to escape
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Compiles a catalog pattern.
 * @returns a test searching the pattern in a text, case-insensitively, in linear time.
 * @throws PatternError when RE2 refuses the pattern (a syntax error, a backreference, a
 *   lookaround, a repeat count over 1000 ...), with RE2's reason.
 */
export function compilePattern(pattern: string): PatternTest {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    const reason = e.message.replace(/^error parsing regexp: /, '');
    throw new PatternError(pattern, printable(reason));
  }
  return (text) => re.test(text);
}
