/** The chart functions (docs/architecture.md: pure functions rows -> SVG element). */
export { topOverpaidChart, TOP_OVERPAID_DOMAIN, type OverpaidServiceRow } from './top-overpaid-chart';
export { overpaymentTrendChart, TREND_DOMAIN, type TrendRow } from './overpayment-trend-chart';
export { commonServicesChart, type CommonServiceRow } from './common-services-chart';
export { availabilityTrendChart, type AvailabilityRow } from './availability-trend-chart';
export type { ChartOptions } from './chart-options';
