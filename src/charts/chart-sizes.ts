/**
 * The dashboards' chart heights, px, apart from the chart functions so that a panel can hold a
 * chart's place (DashboardPanels) without loading Observable Plot.
 */

/** 'Top 10 Overpaid Services': the height for `bars` rows (at most 10 are drawn). */
export const topOverpaidHeight = (bars: number): number => 40 + Math.min(bars, 10) * 30;

/** 'Overpayment Trend Over Time'. */
export const TREND_HEIGHT = 300;
