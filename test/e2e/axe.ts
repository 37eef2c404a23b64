/**
 * axe-core in the page under test (test/e2e/accessibility.e2e.ts): the library is read from
 * node_modules and evaluated in the page (no request leaves the origin; the app's CSP forbids
 * inline script tags, which `page.evaluate` is not subject to), then `axe.run` reports the
 * violations. Each violation node becomes one line naming the rule, its impact, the element's
 * selector and the rule's help text, so a failing assertion shows which element to fix.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { PROJECT_ROOT } from '../../scripts/server/build-app';

let source: Promise<string> | undefined;

/** The minified axe-core script, read once. */
function axeSource(): Promise<string> {
  source ??= readFile(join(PROJECT_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  return source;
}

/** One line per element violating a rule: `rule-id (impact) selector: help [help URL]`. */
export type AxeViolationLine = string;

/** Runs axe-core on the whole document of `page` (injecting it when not there yet); one line per violating element. */
export async function axeViolations(page: Page): Promise<AxeViolationLine[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id, impact: v.impact ?? null, help: v.help, helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' '), html: n.html })),
    }));
  });
  return violations.flatMap((v) => v.nodes.map((n) =>
    `${v.id} (${v.impact ?? 'no impact'}) ${n.target}: ${v.help} [${v.helpUrl}] ${n.html.length > 160 ? `${n.html.slice(0, 159)}…` : n.html}`));
}
