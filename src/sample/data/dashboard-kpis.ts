/**
 * The dashboard's KPI figures over the sample catalogue, docs/screens.md (Sample dashboard):
 * Average Overpayment (claims-weighted mean of variance, docs/methodology.md), Top Overpaid Service (the
 * highest variance), Claims Above Market (percent of services with variance above 0), and the
 * ten most overpaid services of the bar chart.
 */
import { averageOverpayment } from '../../../contract/rules/metrics';
import type { SampleService } from './services';

export interface DashboardKpis {
  /** Percent. */
  averageOverpayment: number;
  topService: SampleService;
  /** Percent of services. */
  claimsAboveMarket: number;
}

/** KPIs of a non-empty list; throws on an empty one (the sample catalogue never is). */
export function dashboardKpis(services: readonly SampleService[]): DashboardKpis {
  const top = topOverpaid(services, 1)[0];
  if (!top) throw new Error('invalid services: empty list');
  return {
    averageOverpayment: averageOverpayment(services.map((s) => ({ variance: s.anthemVariance, claims: s.claimsVolume }))) ?? 0,
    topService: top,
    claimsAboveMarket: (100 * services.filter((s) => s.anthemVariance > 0).length) / services.length,
  };
}

/** The `n` services with the highest variance, highest first (ties by code). */
export function topOverpaid(services: readonly SampleService[], n = 10): SampleService[] {
  return [...services]
    .sort((a, b) => b.anthemVariance - a.anthemVariance || a.serviceCode.localeCompare(b.serviceCode))
    .slice(0, n);
}
