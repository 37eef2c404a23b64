/**
 * The page side of the screens benchmark (bench/screens.bench.ts): a script installed in every page
 * before its own scripts, which notes, with `performance.now()` in the page (so no figure is
 * quantised by a poll from Node), when a route's first content appears and when it is complete,
 * and for a scripted step the time from its input event to the screen's settled answer.
 *
 * "Complete" is one predicate, defined here once: no loading indicator anywhere in the document
 * (LOADING_SELECTORS, LOADING_TEXT), the watched content present (every selector of `content`),
 * and, for a step, the screen changed since the input (the text of `change` differs, or a loading
 * indicator showed meanwhile); the figure is the moment that state began, once it has held for
 * STABLE_MS. The predicate is evaluated on every DOM mutation (MutationObserver: child lists,
 * text and attributes), so the moment is the mutation's own.
 *
 * Page API (window.__screens): `watch(cfg)` starts a watch (cfg: `{ first?, content, change?,
 * input? }`, arrays of CSS selectors; `input: true` waits for the next click/change/input/keydown
 * event and times from its `timeStamp`); `result()` gives `{ first, complete, t0, loading,
 * longTasks }` in ms of the page's clock (null while pending); `longTasks` holds every Long Tasks
 * API entry as `[startTime, duration]`.
 */

/**
 * Every loading indicator the app renders, found in src/ and index.html: the boot loader
 * (#page-loader, 'Loading Compete...'), `aria-busy="true"` (the KPI cards' placeholder, the
 * comparison's results while a page loads, its price strips until their market bands come, the
 * state modal's count), spinners (.spinner: the
 * autocomplete's 'Searching', the sample's old dashboard), the comparison's `.is-loading`, and the
 * autocomplete's busy status.
 */
export const LOADING_SELECTORS: readonly string[] = [
  '#page-loader',
  '[aria-busy="true"]',
  '.spinner',
  '.is-loading',
  '[role="status"][aria-label="Searching"]',
];

/**
 * Loading texts, matched against every text node of the document (trimmed): 'Loading figures...',
 * 'Loading trend...', 'Loading map...', 'Loading chart...', 'Loading alerts...', 'Loading price
 * comparison data...', 'Loading rate rows...', 'Loading...' (a button, a status, the state modal's
 * hidden status), 'Loading the settings of the open dataset...', and the autocomplete's 'Searching...'.
 */
export const LOADING_TEXT = /^(?:Loading|Searching)\b/;

/** How long the complete state must hold before its start counts, ms. */
export const STABLE_MS = 200;

/** What a watch looks for (CSS selectors; a selector list `a, b` is present when either is). */
export interface WatchConfig {
  /** Selectors of the first content: the first moment every one is present. */
  first?: readonly string[];
  /** Selectors that must all be present for the screen to be complete. */
  content: readonly string[];
  /** Selectors whose text must differ from when the watch started (a step's answer). */
  change?: readonly string[];
  /** Whether to wait for the next input event and time from it (a step), rather than from navigation. */
  input?: boolean;
}

/** What a watch measured, ms of the page's clock (`performance.now()`). */
export interface WatchResult {
  /** The input event's time stamp; 0 for a navigation. */
  t0: number;
  first: number | null;
  complete: number | null;
  /** The loading indicator seen last (a selector, or `text: ...`), for error messages. */
  loading: string | null;
  /** Whether the content is present now. */
  content: boolean;
  longTasks: Array<[number, number]>;
  timeOrigin: number;
}

/** The script, as a string (installed with `addInitScript`, evaluated before the page's scripts). */
export function probeScript(): string {
  return `(() => {
  const SELECTORS = ${JSON.stringify(LOADING_SELECTORS)};
  const TEXT = new RegExp(${JSON.stringify(LOADING_TEXT.source)});
  const STABLE_MS = ${STABLE_MS};
  const s = { longTasks: [], current: null };
  window.__screens = s;
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) s.longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  const loadingNow = () => {
    for (const sel of SELECTORS) if (document.querySelector(sel)) return sel;
    if (!document.body) return 'no body';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.nodeValue.trim();
      if (t && TEXT.test(t)) return 'text: ' + t.slice(0, 60);
    }
    return null;
  };
  const present = (sels) => !!document.body && sels.every((sel) => document.querySelector(sel) !== null);
  const signature = (sels) => sels.map((sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent).join('\\u0001')).join('\\u0002');
  const check = () => {
    const w = s.current;
    if (!w || w.complete !== null || w.waitingInput) return;
    const now = performance.now();
    if (w.first === null && w.cfg.first && present(w.cfg.first)) w.first = now;
    const loading = loadingNow();
    if (loading) { w.sawLoading = true; w.loading = loading; }
    w.content = present(w.cfg.content);
    const changed = !w.cfg.change || w.sawLoading || signature(w.cfg.change) !== w.before;
    if (!loading && changed && w.content) { if (w.readySince === null) w.readySince = now; }
    else w.readySince = null;
  };
  const start = (cfg) => {
    s.current = { cfg, t0: 0, first: null, complete: null, readySince: null, loading: null, content: false, sawLoading: false,
      waitingInput: !!cfg.input, before: cfg.change ? signature(cfg.change) : '' };
    check();
  };
  s.watch = start;
  s.result = () => {
    const w = s.current;
    return { t0: w ? w.t0 : 0, first: w ? w.first : null, complete: w ? w.complete : null, loading: w ? w.loading : null,
      content: w ? w.content : false, longTasks: s.longTasks, timeOrigin: performance.timeOrigin };
  };
  for (const type of ['click', 'change', 'input', 'keydown']) {
    window.addEventListener(type, (e) => {
      const w = s.current;
      if (!w || !w.waitingInput) return;
      w.waitingInput = false;
      w.t0 = e.timeStamp;
      queueMicrotask(check);
    }, true);
  }
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  setInterval(() => {
    const w = s.current;
    if (!w || w.complete !== null) return;
    if (w.readySince !== null && performance.now() - w.readySince >= STABLE_MS) w.complete = w.readySince;
  }, 25);
})();`;
}

/** The page-side call that starts a watch of `cfg`, as an expression for `page.evaluate`. */
export function watchCall(cfg: WatchConfig): string {
  return `window.__screens.watch(${JSON.stringify(cfg)})`;
}

/** The page-side expression giving the current WatchResult. */
export const RESULT_CALL = 'window.__screens.result()';

/**
 * Whether the current watch is complete: a function for `page.waitForFunction` (a string would be
 * evaluated with `eval`, which the app's CSP forbids). It refers to nothing outside itself.
 */
export const isComplete = (): boolean =>
  (window as unknown as { __screens?: { result(): { complete: number | null } } }).__screens?.result().complete != null;
