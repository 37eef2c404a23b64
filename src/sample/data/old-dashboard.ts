/**
 * Fixed sample figures of the old dashboard, docs/screens.md (Old dashboard and overview): the most common
 * services, the file availability trend (Jul 2022 to Jan 2024, ending at 2,100 files and 95.5 %
 * compliance), the state grid and table, and the recent activity.
 */

export interface CommonServiceCount {
  serviceCode: string;
  serviceName: string;
  /** Providers publishing a rate for the service. */
  providerCount: number;
}

export const COMMON_SERVICE_COUNTS: readonly CommonServiceCount[] = [
  { serviceCode: '99203', serviceName: 'Office Visit - New Patient', providerCount: 1842 },
  { serviceCode: '85025', serviceName: 'Complete Blood Count', providerCount: 1655 },
  { serviceCode: '71020', serviceName: 'Chest X-Ray, 2 Views', providerCount: 1320 },
  { serviceCode: '70551', serviceName: 'MRI Brain', providerCount: 964 },
  { serviceCode: '45378', serviceName: 'Colonoscopy', providerCount: 871 },
  { serviceCode: '93000', serviceName: 'Electrocardiogram', providerCount: 812 },
  { serviceCode: '80053', serviceName: 'Metabolic Panel', providerCount: 745 },
  { serviceCode: '99283', serviceName: 'Emergency Visit', providerCount: 598 },
];

export interface AvailabilityPoint {
  /** 'Jul 2022'. */
  month: string;
  /** Machine-readable files published. */
  files: number;
  /** Percent of insurers compliant. */
  compliance: number;
}

export const AVAILABILITY_TREND: readonly AvailabilityPoint[] = [
  { month: 'Jul 2022', files: 820, compliance: 61.5 },
  { month: 'Oct 2022', files: 1_040, compliance: 68.0 },
  { month: 'Jan 2023', files: 1_260, compliance: 74.2 },
  { month: 'Apr 2023', files: 1_490, compliance: 80.6 },
  { month: 'Jul 2023', files: 1_700, compliance: 86.3 },
  { month: 'Oct 2023', files: 1_920, compliance: 91.8 },
  { month: 'Jan 2024', files: 2_100, compliance: 95.5 },
];

export interface StateAvailability {
  state: string;
  name: string;
  files: number;
  providers: number;
  /** USD. */
  averageRate: number;
}

export const STATE_AVAILABILITY: readonly StateAvailability[] = [
  { state: 'CA', name: 'California', files: 312, providers: 942, averageRate: 3240 },
  { state: 'NY', name: 'New York', files: 284, providers: 811, averageRate: 3515 },
  { state: 'TX', name: 'Texas', files: 251, providers: 776, averageRate: 2460 },
  { state: 'FL', name: 'Florida', files: 233, providers: 702, averageRate: 2580 },
  { state: 'IL', name: 'Illinois', files: 176, providers: 625, averageRate: 2705 },
  { state: 'PA', name: 'Pennsylvania', files: 158, providers: 540, averageRate: 2890 },
  { state: 'OH', name: 'Ohio', files: 121, providers: 468, averageRate: 2390 },
  { state: 'GA', name: 'Georgia', files: 97, providers: 401, averageRate: 2310 },
  { state: 'NC', name: 'North Carolina', files: 84, providers: 366, averageRate: 2250 },
  { state: 'MI', name: 'Michigan', files: 62, providers: 322, averageRate: 2480 },
];

/** Minimum opacity of a heat-grid tile. */
export const HEAT_GRID_MIN_OPACITY = 0.2;

/** Tile opacity: value / max, never below HEAT_GRID_MIN_OPACITY. */
export function heatOpacity(value: number, max: number): number {
  return max > 0 ? Math.max(HEAT_GRID_MIN_OPACITY, value / max) : HEAT_GRID_MIN_OPACITY;
}

export interface Activity {
  id: string;
  /** ISO date-time. */
  at: string;
  text: string;
}

export const RECENT_ACTIVITY: readonly Activity[] = [
  { id: 'a1', at: '2024-01-15T09:12:00Z', text: 'Anthem Blue Cross published its January in-network rates file (2.4 GB).' },
  { id: 'a2', at: '2024-01-14T17:40:00Z', text: 'UnitedHealthcare updated 1,284 negotiated rates in California.' },
  { id: 'a3', at: '2024-01-13T11:05:00Z', text: 'Kaiser Permanente added 36 providers to its PPO network file.' },
  { id: 'a4', at: '2024-01-12T08:30:00Z', text: 'Aetna table of contents now lists 412 in-network files.' },
  { id: 'a5', at: '2024-01-10T15:55:00Z', text: 'Compliance check: 95.5% of tracked insurers publish current files.' },
];
