/**
 * Fixed sample figures of the dashboard, docs/screens.md (Sample dashboard): the
 * overpayment trend, the regional overpayment per region (map colours) and the per-region
 * service prices of the state modal. Percents are percents; prices USD.
 */
import type { Region } from '../../../contract/rules/state-areas';

export interface TrendPoint {
  month: string;
  /** Average overpayment, percent. */
  value: number;
}

/**
 * Overpayment trend sample, docs/screens.md (Constants): Jan to Nov, with Sep but no Aug, and one
 * label misspelled 'Dez' as the product's sample has it; values inside the chart's 8-20 % axis.
 */
export const OVERPAYMENT_TREND: readonly TrendPoint[] = [
  { month: 'Jan', value: 11.2 }, { month: 'Feb', value: 11.8 }, { month: 'Mar', value: 12.5 },
  { month: 'Apr', value: 12.1 }, { month: 'May', value: 13.4 }, { month: 'Jun', value: 14.2 },
  { month: 'Jul', value: 14.9 }, { month: 'Sep', value: 15.6 }, { month: 'Oct', value: 15.1 },
  { month: 'Nov', value: 16.3 }, { month: 'Dez', value: 16.8 },
];

export interface RegionalOverpayment {
  region: Region;
  /** Reference insurer's average overpayment, percent. */
  anthemAvgOverpayment: number;
  /** The market's average overpayment, percent. */
  marketAvgOverpayment: number;
  claimsCount: number;
  topCompetitors: string[];
}

export const REGIONAL_OVERPAYMENT: readonly RegionalOverpayment[] = [
  { region: 'West', anthemAvgOverpayment: 18.4, marketAvgOverpayment: 11.2, claimsCount: 48_200, topCompetitors: ['kaiser', 'unitedhealth'] },
  { region: 'Northeast', anthemAvgOverpayment: 16.2, marketAvgOverpayment: 10.4, claimsCount: 39_600, topCompetitors: ['aetna', 'cigna'] },
  { region: 'Southeast', anthemAvgOverpayment: 14.6, marketAvgOverpayment: 9.8, claimsCount: 35_100, topCompetitors: ['humana', 'centene'] },
  { region: 'Midwest', anthemAvgOverpayment: 13.9, marketAvgOverpayment: 9.1, claimsCount: 29_800, topCompetitors: ['bcbs', 'unitedhealth'] },
  { region: 'Southwest', anthemAvgOverpayment: 11.7, marketAvgOverpayment: 8.6, claimsCount: 22_400, topCompetitors: ['unitedhealth', 'molina'] },
];

export interface RegionServicePrice {
  service: string;
  /** Reference insurer's price, USD. */
  yourPrice: number;
  /** USD. */
  marketAvg: number;
  /** (yourPrice - marketAvg) / marketAvg x 100, percent. */
  overpaymentPct: number;
}

function row(service: string, yourPrice: number, marketAvg: number): RegionServicePrice {
  return { service, yourPrice, marketAvg, overpaymentPct: Math.round(((yourPrice - marketAvg) / marketAvg) * 1000) / 10 };
}

/** Service prices by region for the state modal; the Midwest has no entry ('No data for this region.'). */
export const REGION_SERVICE_PRICES: Readonly<Partial<Record<Region, RegionServicePrice[]>>> = {
  West: [
    row('MRI Brain without Contrast', 1_520, 1_210), row('Colonoscopy, Diagnostic', 2_080, 1_760),
    row('Office Visit - New Patient (Level 3)', 176, 149), row('Chest X-Ray, 2 Views', 102, 86),
    row('Complete Blood Count (CBC) with Differential', 36, 29),
  ],
  Northeast: [
    row('MRI Brain without Contrast', 1_610, 1_380), row('Colonoscopy, Diagnostic', 2_150, 1_870),
    row('Office Visit - New Patient (Level 3)', 182, 158), row('Chest X-Ray, 2 Views', 99, 90),
  ],
  Southeast: [
    row('MRI Brain without Contrast', 1_290, 1_120), row('Colonoscopy, Diagnostic', 1_840, 1_620),
    row('Complete Blood Count (CBC) with Differential', 31, 27),
  ],
  Southwest: [
    row('Office Visit - New Patient (Level 3)', 151, 138), row('Chest X-Ray, 2 Views', 88, 80),
    row('MRI Brain without Contrast', 1_240, 1_130),
  ],
};
