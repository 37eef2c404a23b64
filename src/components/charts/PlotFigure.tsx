/**
 * Mounts one chart function's element (architecture.md: charts are pure functions mounted by one
 * PlotFigure). Re-renders at its container's width (ResizeObserver). Chart tooltips hide on
 * Escape and come back when the pointer moves over the chart (product-spec §2 Dashboard content).
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';
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

  return (
    <div
      ref={box}
      className={`plot-figure${tipsHidden ? ' plot-figure--tips-hidden' : ''}`}
      onPointerMove={() => tipsHidden && setTipsHidden(false)}
    />
  );
}
