/**
 * Sample alerts of the dashboard's alerts list, docs/screens.md (Entities). Dates are ISO strings;
 * `affectedValue` and `marketValue` USD.
 */

import type { Alert as AlertEntity, AlertSeverity, AlertType } from '../../../contract/rules/alert-rules';

export type { AlertSeverity, AlertType };

/** A sample alert: the live Alert entity of contract/rules/alert-rules.ts, acknowledgement and unit fields optional. */
export type Alert = Omit<AlertEntity, 'acknowledgedBy' | 'acknowledgedAt' | 'billingClass' | 'component' | 'setting'> &
  Partial<Pick<AlertEntity, 'billingClass' | 'component' | 'setting'>> & { acknowledgedBy?: string; acknowledgedAt?: string };

export const SAMPLE_ALERTS: readonly Alert[] = [
  { id: 'alert-1', type: 'price_spike', severity: 'high', title: 'Price spike on MRI Brain',
    description: 'Negotiated rate rose 18% month over month, now 17.4% above the market average.',
    serviceCode: '70551', serviceName: 'MRI Brain without Contrast', region: 'West',
    affectedValue: 1_420, marketValue: 1_209, createdAt: '2024-01-14T09:30:00Z', acknowledged: false },
  { id: 'alert-2', type: 'outlier', severity: 'high', title: 'Colonoscopy rate is an outlier',
    description: 'Our rate is the highest of ten insurers in the Northeast, 15.0% above the median.',
    serviceCode: '45378', serviceName: 'Colonoscopy, Diagnostic', region: 'Northeast',
    affectedValue: 2_150, marketValue: 1_870, createdAt: '2024-01-12T14:05:00Z', acknowledged: false },
  { id: 'alert-3', type: 'market_shift', severity: 'medium', title: 'Competitors lowered office visit rates',
    description: 'Three competitors cut new-patient visit rates by 6-9% in the January files.',
    serviceCode: '99203', serviceName: 'Office Visit - New Patient (Level 3)', region: 'Southwest',
    affectedValue: 151, marketValue: 138, createdAt: '2024-01-10T11:20:00Z', acknowledged: true,
    acknowledgedBy: 'Analyst', acknowledgedAt: '2024-01-11T08:45:00Z' },
  { id: 'alert-4', type: 'outlier', severity: 'medium', title: 'Chest X-ray above market',
    description: 'Chest X-ray rate is 12.7% above the market average in the West.',
    serviceCode: '71020', serviceName: 'Chest X-Ray, 2 Views', region: 'West',
    affectedValue: 102, marketValue: 86, createdAt: '2024-01-08T16:40:00Z', acknowledged: false },
  { id: 'alert-5', type: 'market_shift', severity: 'low', title: 'Lab prices converging',
    description: 'The spread of CBC prices across insurers narrowed to $7 in the Southeast.',
    serviceCode: '85025', serviceName: 'Complete Blood Count (CBC) with Differential', region: 'Southeast',
    affectedValue: 31, marketValue: 27, createdAt: '2024-01-05T10:00:00Z', acknowledged: true,
    acknowledgedBy: 'Analyst', acknowledgedAt: '2024-01-06T09:15:00Z' },
];
