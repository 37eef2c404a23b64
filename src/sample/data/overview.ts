/**
 * Fixed figures of the 'Transparency Data Overview' screen, docs/screens.md (Old dashboard and
 * overview): totals, card trends (percent), the most common services and
 * provider specialties. Not fetched.
 */

export interface CommonService {
  serviceName: string;
  serviceCode: string;
  /** Number of providers publishing a rate. */
  frequency: number;
  /** USD. */
  averageRate: number;
}

export interface SpecialtyCount {
  specialty: string;
  providerCount: number;
}

export interface RegionalVariation {
  state: string;
  /** USD. */
  averageRate: number;
  providerCount: number;
  serviceCount: number;
}

export interface DashboardSummary {
  totalServices: number;
  totalProviders: number;
  /** USD. */
  averageNegotiatedRate: number;
  /** Percent. */
  priceRangeSpread: number;
  mostCommonServices: CommonService[];
  providersBySpecialty: SpecialtyCount[];
  regionalVariation: RegionalVariation[];
}

/** Card trends of the overview, signed percents. */
export const OVERVIEW_TRENDS = { services: 12.3, providers: 8.7, averageRate: -2.4 } as const;

/** The divisor of a specialty bar's width: width = count / 567. */
export const SPECIALTY_BAR_DIVISOR = 567;

/** Overview lists show at most this many entries. */
export const OVERVIEW_LIST_LIMIT = 5;

export const OVERVIEW_SUMMARY: DashboardSummary = {
  totalServices: 1247,
  totalProviders: 3856,
  averageNegotiatedRate: 2847.5,
  priceRangeSpread: 89.2,
  mostCommonServices: [
    { serviceName: 'Office Visit - New Patient (Level 3)', serviceCode: '99203', frequency: 1842, averageRate: 148 },
    { serviceName: 'Complete Blood Count (CBC) with Differential', serviceCode: '85025', frequency: 1655, averageRate: 29 },
    { serviceName: 'Chest X-Ray, 2 Views', serviceCode: '71020', frequency: 1320, averageRate: 83 },
    { serviceName: 'MRI Brain without Contrast', serviceCode: '70551', frequency: 964, averageRate: 1165 },
    { serviceName: 'Colonoscopy, Diagnostic', serviceCode: '45378', frequency: 871, averageRate: 1736 },
    { serviceName: 'Electrocardiogram, Standard', serviceCode: '93100', frequency: 812, averageRate: 412 },
  ],
  providersBySpecialty: [
    { specialty: 'Internal Medicine', providerCount: 567 },
    { specialty: 'Family Medicine', providerCount: 489 },
    { specialty: 'Cardiology', providerCount: 342 },
    { specialty: 'Orthopedics', providerCount: 298 },
    { specialty: 'Radiology', providerCount: 276 },
    { specialty: 'Pediatrics', providerCount: 251 },
  ],
  regionalVariation: [
    { state: 'CA', averageRate: 3240, providerCount: 942, serviceCount: 1198 },
    { state: 'NY', averageRate: 3515, providerCount: 811, serviceCount: 1163 },
    { state: 'TX', averageRate: 2460, providerCount: 776, serviceCount: 1107 },
    { state: 'FL', averageRate: 2580, providerCount: 702, serviceCount: 1089 },
    { state: 'IL', averageRate: 2705, providerCount: 625, serviceCount: 1041 },
  ],
};
