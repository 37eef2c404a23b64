/**
 * The scripted session of the screens benchmark: on the loaded /live-comparison, /live-dashboard
 * and /live-search, one user action after the other, each timed in the page from its input event
 * (the event's `timeStamp`, noted by the probe's capture listener: bench/screens-probe.ts) until
 * the screen changed and no loading indicator is left for 200 ms. Actions are playwright's (real
 * input events, found by the roles and labels the e2e tests use); a step that returns to the
 * start (a box checked again, 'All Categories') is timed too, so a pass ends where it began and the
 * next pass repeats the same changes (the worker then answers from the answers it keeps).
 * A step whose control the screen does not have (no category in the dataset, no second page, no
 * state filter on the comparison) is listed as not available rather than failing the run.
 */
import type { Page } from 'playwright-core';
import { COMPARISON_ROWS, KPI_VALUE, type DatasetFacts } from './screens-routes';
import { isComplete, RESULT_CALL, watchCall, type WatchConfig, type WatchResult } from './screens-probe';
import { sized } from './tiny';

/** One user action and what its answer is. */
interface Step {
  label: string;
  watch: WatchConfig;
  /** Whether the screen offers the control now (default: yes). */
  available?(page: Page): Promise<boolean>;
  act(page: Page): Promise<void>;
  /** Puts the screen back after the step (not timed), e.g. closes a dialog. */
  after?(page: Page): Promise<void>;
}

/** A step's figures over the passes, ms. */
export interface StepTimes {
  screen: string;
  label: string;
  /** Input event to settled answer, one per pass; empty when the step was not available. */
  ms: number[];
  /** The longest main-thread task between the input and the answer, over the passes. */
  longestTaskMs: number;
}

/** How long a control may take to close or enable between steps, ms: long beside the other benchmarks in tiny mode. */
const CONTROL_TIMEOUT_MS = sized(10_000, 120_000);

const COMPARISON_CHANGE: WatchConfig = { content: [COMPARISON_ROWS], change: ['section.live-comparison'] };
const DASHBOARD_CHANGE: WatchConfig = { content: [KPI_VALUE, 'path.us-map__state'], change: ['section[aria-labelledby="live-dashboard-title"]'] };
const DIALOG_CLOSED = async (page: Page) => {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').first().waitFor({ state: 'detached', timeout: CONTROL_TIMEOUT_MS });
};

const competitor = (page: Page) => page.locator('.cmp-insurers input[type="checkbox"]').first();
const chip = (name: string) => (page: Page) => page.getByRole('button', { name, exact: true }).click();
const sortBy = (value: string) => (page: Page) => page.getByLabel('Sort by', { exact: true }).selectOption(value).then(() => undefined);
const named = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });
const stateFilter = (page: Page) => page.locator('section.live-comparison').getByLabel('State', { exact: true });

/** The comparison's steps. */
function comparisonSteps(f: DatasetFacts): Step[] {
  const hasCategory = async () => f.category !== null;
  const hasState = async (page: Page) => (await stateFilter(page).count()) > 0;
  return [
    { label: 'competitor unchecked', watch: COMPARISON_CHANGE, act: (p) => competitor(p).click() },
    { label: 'competitor checked again', watch: COMPARISON_CHANGE, act: (p) => competitor(p).click() },
    { label: `category '${f.category ?? '-'}'`, watch: COMPARISON_CHANGE, available: hasCategory,
      act: (p) => p.getByLabel('Category', { exact: true }).selectOption({ label: f.category ?? '' }).then(() => undefined) },
    { label: 'category: All Categories', watch: COMPARISON_CHANGE, available: hasCategory,
      act: (p) => p.getByLabel('Category', { exact: true }).selectOption({ index: 0 }).then(() => undefined) },
    { label: 'Professional chip off', watch: COMPARISON_CHANGE, act: chip('Professional') },
    { label: 'Professional chip on', watch: COMPARISON_CHANGE, act: chip('Professional') },
    { label: 'Institutional chip off', watch: COMPARISON_CHANGE, act: chip('Institutional') },
    { label: 'Institutional chip on', watch: COMPARISON_CHANGE, act: chip('Institutional') },
    { label: 'sort: Price Variance %', watch: COMPARISON_CHANGE, act: sortBy('variance') },
    { label: 'sort: Potential Savings', watch: COMPARISON_CHANGE, act: sortBy('savings') },
    { label: 'sort: Overpayment Amount', watch: COMPARISON_CHANGE, act: sortBy('overpayment') },
    { label: "'Show only overpaying services' off", watch: COMPARISON_CHANGE, act: (p) => named(p, 'Show only overpaying services').click() },
    { label: "'Show only overpaying services' on", watch: COMPARISON_CHANGE, act: (p) => named(p, 'Show only overpaying services').click() },
    { label: 'At shared providers on', watch: COMPARISON_CHANGE, act: (p) => named(p, 'At shared providers').click() },
    { label: 'At shared providers off', watch: COMPARISON_CHANGE, act: (p) => named(p, 'At shared providers').click() },
    { label: 'state CA', watch: COMPARISON_CHANGE, available: hasState, act: (p) => stateFilter(p).selectOption('CA').then(() => undefined) },
    { label: 'state: all', watch: COMPARISON_CHANGE, available: hasState, act: (p) => stateFilter(p).selectOption({ index: 0 }).then(() => undefined) },
    { label: 'next page', watch: COMPARISON_CHANGE, available: (p) => p.getByRole('button', { name: 'Next', exact: true }).isEnabled(),
      act: (p) => p.getByRole('button', { name: 'Next', exact: true }).click() },
    { label: 'previous page', watch: COMPARISON_CHANGE, available: (p) => p.getByRole('button', { name: 'Previous', exact: true }).isEnabled(),
      act: (p) => p.getByRole('button', { name: 'Previous', exact: true }).click() },
    { label: 'rate rows dialog', available: async (p) => (await p.locator('.comparison-table .live-price-link').count()) > 0,
      watch: { content: ['dialog[open] [aria-label="Prices and their files"], dialog[open] .live-error'] },
      act: (p) => p.locator('.comparison-table .live-price-link').first().click(), after: DIALOG_CLOSED },
  ];
}

/** The dashboard's steps. */
function dashboardSteps(): Step[] {
  const ca = (p: Page) => p.locator('path.us-map__state[data-state="CA"]');
  return [
    { label: 'state modal (CA)', available: async (p) => (await ca(p).count()) > 0,
      watch: { content: ['dialog[open] table'] }, act: (p) => ca(p).click(), after: DIALOG_CLOSED },
    { label: 'At shared providers on', watch: DASHBOARD_CHANGE, act: (p) => named(p, 'At shared providers').click() },
    { label: 'At shared providers off', watch: DASHBOARD_CHANGE, act: (p) => named(p, 'At shared providers').click() },
  ];
}

/** The live search's step: Search pressed with a service, a provider and an insurer chosen; after it, the insurer chosen again. */
function searchSteps(f: DatasetFacts): Step[] {
  return [{
    label: 'Live Search answer', watch: { content: ['.live-search .cmp-results'] },
    act: (p) => p.getByRole('button', { name: 'Search', exact: true }).click(),
    after: async (p) => {
      await p.getByRole('button', { name: /^Clear insurer/ }).click();
      await p.getByRole('combobox', { name: 'Insurer' }).click();
      await p.getByRole('option').filter({ has: p.locator('small').getByText(f.insurer, { exact: true }) }).first().click();
      await p.getByRole('button', { name: 'Search', exact: true }).and(p.locator(':enabled')).waitFor({ timeout: CONTROL_TIMEOUT_MS });
    },
  }];
}

/** A screen of the session: the URL it starts from, what it is complete with, and its steps. */
export interface SessionScreen {
  name: string;
  path: string;
  ready: WatchConfig;
  steps: Step[];
}

/** The screens of the session, in order. */
export function sessionScreens(f: DatasetFacts): SessionScreen[] {
  const search = new URLSearchParams({ service: f.service, provider: f.provider, insurer: f.insurer }).toString();
  return [
    { name: '/live-comparison', path: '/live-comparison', ready: { content: [COMPARISON_ROWS] }, steps: comparisonSteps(f) },
    { name: '/live-dashboard', path: '/live-dashboard', ready: { content: [KPI_VALUE, 'path.us-map__state'] }, steps: dashboardSteps() },
    { name: '/live-search', path: `/live-search?${search}`, ready: { content: ['.live-search__chosen'] }, steps: searchSteps(f) },
  ];
}

/** Waits until the current watch of `page` is complete. @throws after `timeoutMs`, naming what was missing or loading. */
async function settled(page: Page, what: string, watch: WatchConfig, timeoutMs: number): Promise<WatchResult> {
  try {
    await page.waitForFunction(isComplete, undefined, { timeout: timeoutMs, polling: 50 });
  } catch (e) {
    const r = await page.evaluate(RESULT_CALL).catch(() => null) as WatchResult | null;
    throw new Error(`${what}: not settled within ${timeoutMs / 1000} s (content ${r?.content ? 'present' : `missing: ${watch.content.join(' + ')}`}, ` +
      `last loading indicator ${r?.loading ?? 'none'}): ${(e as Error).message.split('\n')[0]}`);
  }
  return await page.evaluate(RESULT_CALL) as WatchResult;
}

/**
 * Opens `screen` on `page` (a page with the probe installed, bench/screens-probe.ts), waits until it
 * is complete, then runs its steps `passes` times. Returns one StepTimes per step.
 * @throws when a control is not found or a step does not settle within `timeoutMs`.
 */
export async function runSession(page: Page, baseUrl: string, screen: SessionScreen, passes: number, timeoutMs: number): Promise<StepTimes[]> {
  await page.goto(new URL(screen.path.replace(/^\//, ''), baseUrl).href, { waitUntil: 'commit' });
  await page.evaluate(watchCall(screen.ready));
  await settled(page, screen.name, screen.ready, timeoutMs);
  const times: StepTimes[] = screen.steps.map((s) => ({ screen: screen.name, label: s.label, ms: [], longestTaskMs: 0 }));
  for (let pass = 0; pass < passes; pass++) {
    for (const [i, step] of screen.steps.entries()) {
      if (step.available && !(await step.available(page))) continue;
      const what = `${screen.name}: ${step.label}`;
      await page.evaluate(watchCall({ ...step.watch, input: true }));
      await step.act(page).catch((e: unknown) => {
        throw new Error(`${what}: ${(e as Error).message.split('\n')[0]}`);
      });
      const r = await settled(page, what, step.watch, timeoutMs);
      const t = times[i]!;
      t.ms.push((r.complete ?? r.t0) - r.t0);
      t.longestTaskMs = Math.max(t.longestTaskMs, ...r.longTasks.filter(([start, d]) => start + d >= r.t0 && start <= (r.complete ?? 0)).map(([, d]) => d));
      await step.after?.(page);
    }
  }
  return times;
}
