/**
 * Options every chart function takes: the width in CSS pixels (PlotFigure passes its container's)
 * and an optional `document` (Plot renders into it; the page's by default).
 */
export interface ChartOptions {
  width?: number;
  document?: Document;
}

/** Colours shared by the charts, matching src/styles/theme.css. */
export const CHART_COLORS = {
  accent: '#1f5fbf',
  bad: '#b42318',
  muted: '#5a6473',
  grid: '#dfe3e8',
} as const;

/** The Plot options common to every chart. */
export function baseOptions(options: ChartOptions, fallbackWidth: number) {
  return {
    width: Math.max(280, Math.round(options.width ?? fallbackWidth)),
    style: { fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' },
    ...(options.document ? { document: options.document } : {}),
  };
}
