/**
 * Mounts one chart function's element (docs/architecture.md: charts are pure functions mounted by one
 * PlotFigure). Re-renders at its container's width (ResizeObserver). Chart tooltips hide on
 * Escape and come back when the pointer moves over the chart, docs/screens.md (Shared components).
 * The chart is one image to assistive technology (`role="img"` named by `label`): the marks inside are
 * hidden from it (Plot's `aria-label`s on them stay for styling and tests). Links a chart draws (an SVG
 * `<a>`, e.g. a bar of Top 10 Overpaid Services) become pointer targets (`data-href`) that open inside
 * the app (react-router) on a plain click and in a new tab with a modifier key; they are no links to
 * the keyboard or to assistive technology: a screen giving its charts links lists them in HTML as well.
 */
import { useEffect, useRef, useState, type MouseEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ChartOptions } from '../../charts/chart-options';
import './PlotFigure.css';

export interface PlotFigureProps<Row> {
  /** A chart function from src/charts. */
  chart: (rows: readonly Row[], options: ChartOptions) => SVGSVGElement | HTMLElement;
  rows: readonly Row[];
  /** Accessible name of the chart, e.g. 'Top 10 Overpaid Services, bar chart'. */
  label: string;
}

export function PlotFigure<Row>({ chart, rows, label }: PlotFigureProps<Row>): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [tipsHidden, setTipsHidden] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el || width === null) return;
    const node = chart(rows, { width });
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', label);
    for (const child of node.children) child.setAttribute('aria-hidden', 'true');
    for (const a of node.querySelectorAll('a')) {
      const href = a instanceof SVGAElement ? a.href.baseVal : a.getAttribute('href');
      for (const attribute of ['href', 'xlink:href', 'tabindex']) a.removeAttribute(attribute);
      if (href) a.setAttribute('data-href', href);
    }
    el.replaceChildren(node);
    return () => node.remove();
  }, [chart, rows, width, label]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setTipsHidden(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const href = event.target instanceof Element ? event.target.closest('[data-href]')?.getAttribute('data-href') : null;
    if (!href || event.button !== 0) return;
    const to = new URL(href, window.location.href);
    if (event.metaKey || event.ctrlKey || event.shiftKey || to.origin !== window.location.origin) window.open(to.href, '_blank', 'noopener');
    else void navigate(`${to.pathname}${to.search}${to.hash}`);
  };

  return (
    // The chart's links are in the Tab order elsewhere (see the module comment); this only routes clicks.
    <div
      onClick={onClick}
      ref={box}
      className={`plot-figure${tipsHidden ? ' plot-figure--tips-hidden' : ''}`}
      onPointerMove={() => tipsHidden && setTipsHidden(false)}
    />
  );
}
