/**
 * The sample comparison's rules, docs/screens.md (Sample comparison): per service the
 * selected competitors' average, the overpayment (reference price minus that average, or minus
 * the market average when no competitor is selected), the variance and the potential savings;
 * the filters (category, overpaying only, professional/institutional by code ending), the three
 * sort orders and the summary cards. Prices and savings USD; variances percent.
 */
import { averageOverpayment, potentialSavings, referenceVariance } from '../../../contract/rules/metrics';
import type { CompetitorId } from './insurers';
import type { SampleService, ServiceCategory } from './services';

export type ComparisonSort = 'overpayment' | 'variance' | 'savings';
export type ServiceType = 'professional' | 'institutional';

export interface ComparisonRow {
  service: SampleService;
  /** Mean price of the selected competitors (market average when none), USD. */
  selectedAvg: number;
  /** anthemPrice - selectedAvg, USD. */
  overpayment: number;
  /** overpayment / selectedAvg x 100, percent. */
  variance: number;
  /** overpayment x claimsVolume when overpayment > 0, else 0, USD. */
  savings: number;
  type: ServiceType;
}

export interface ComparisonFilters {
  competitors: readonly CompetitorId[];
  /** null for 'All Categories'. */
  category: ServiceCategory | null;
  overpayingOnly: boolean;
  professional: boolean;
  institutional: boolean;
  sort: ComparisonSort;
  /** When not empty, only these service codes. */
  serviceCodes: readonly string[];
}

/** Service type by code ending: 0 or 5 -> institutional, else professional. */
export function serviceType(code: string): ServiceType {
  return /[05]$/.test(code) ? 'institutional' : 'professional';
}

/** One service compared against `competitors`. */
export function compareService(service: SampleService, competitors: readonly CompetitorId[]): ComparisonRow {
  const prices = competitors.map((id) => service.marketPrices[id]);
  const selectedAvg = prices.length ? prices.reduce((a, b) => a + b, 0) / prices.length : service.marketAverage;
  const overpayment = service.anthemPrice - selectedAvg;
  return {
    service, selectedAvg, overpayment,
    variance: referenceVariance(service.anthemPrice, selectedAvg) ?? 0,
    savings: potentialSavings(overpayment, service.claimsVolume),
    type: serviceType(service.serviceCode),
  };
}

const SORT_KEY: Record<ComparisonSort, (r: ComparisonRow) => number> = {
  overpayment: (r) => r.overpayment,
  variance: (r) => r.variance,
  savings: (r) => r.savings,
};

/** Rows before the overpaying filter: selected services, category and type applied. */
export function scopeRows(services: readonly SampleService[], f: ComparisonFilters): ComparisonRow[] {
  const codes = new Set(f.serviceCodes);
  return services
    .filter((s) => codes.size === 0 || codes.has(s.serviceCode))
    .filter((s) => f.category === null || s.category === f.category)
    .map((s) => compareService(s, f.competitors))
    .filter((r) => (r.type === 'professional' ? f.professional : f.institutional));
}

/** The rows the table shows, sorted descending by the chosen order. */
export function comparisonRows(services: readonly SampleService[], f: ComparisonFilters): ComparisonRow[] {
  return scopeRows(services, f)
    .filter((r) => !f.overpayingOnly || r.overpayment > 0)
    .sort((a, b) => SORT_KEY[f.sort](b) - SORT_KEY[f.sort](a) || a.service.serviceCode.localeCompare(b.service.serviceCode));
}

export interface ComparisonSummary {
  /** Sum of savings of the shown rows, USD. */
  totalSavings: number;
  /** Claims-weighted mean variance of the shown rows, percent; null when none. */
  avgOverpayment: number | null;
  overpaying: number;
  total: number;
  comparingAgainst: number;
}

/** Summary cards: savings and average over the shown rows; 'n / total' over the scoped rows. */
export function comparisonSummary(scoped: readonly ComparisonRow[], shown: readonly ComparisonRow[], competitors: number): ComparisonSummary {
  return {
    totalSavings: shown.reduce((a, r) => a + r.savings, 0),
    avgOverpayment: averageOverpayment(shown.map((r) => ({ variance: r.variance, claims: r.service.claimsVolume }))),
    overpaying: scoped.filter((r) => r.overpayment > 0).length,
    total: scoped.length,
    comparingAgainst: competitors,
  };
}
