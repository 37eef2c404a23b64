/**
 * The live dashboard's two charts as one chunk, which it loads behind its KPI cards
 * (src/components/lazy-module.ts): Observable Plot comes with them.
 */
export { topOverpaidChart } from './top-overpaid-chart';
export { overpaymentTrendChart } from './overpayment-trend-chart';
