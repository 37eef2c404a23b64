/**
 * The ten sample insurers, docs/screens.md (Entities). `anthem` is the reference insurer
 * of the sample screens; the others are competitors. Market shares are percents of members in the
 * sample market, fixed plausible values (the product's sample gives none).
 */

export const INSURER_IDS = [
  'anthem', 'unitedhealth', 'kaiser', 'aetna', 'cigna', 'humana', 'bcbs', 'molina', 'centene', 'healthnet',
] as const;
export type InsurerId = (typeof INSURER_IDS)[number];
export type CompetitorId = Exclude<InsurerId, 'anthem'>;

export interface SampleInsurer {
  id: InsurerId;
  name: string;
  shortName: string;
  /** Percent of members in the sample market. */
  marketShare: number;
  memberCount: number;
  /** Two-letter state codes. */
  regions: string[];
}

/** The reference insurer's id on the sample screens. */
export const REFERENCE_INSURER: InsurerId = 'anthem';

export const SAMPLE_INSURERS: readonly SampleInsurer[] = [
  { id: 'anthem', name: 'Anthem Blue Cross', shortName: 'Anthem', marketShare: 18.5, memberCount: 4_200_000, regions: ['CA', 'NY', 'OH', 'VA'] },
  { id: 'unitedhealth', name: 'UnitedHealthcare', shortName: 'UnitedHealth', marketShare: 15.2, memberCount: 3_450_000, regions: ['CA', 'TX', 'FL', 'NY', 'IL'] },
  { id: 'kaiser', name: 'Kaiser Permanente', shortName: 'Kaiser', marketShare: 12.8, memberCount: 2_900_000, regions: ['CA', 'CO', 'GA', 'WA'] },
  { id: 'aetna', name: 'Aetna', shortName: 'Aetna', marketShare: 10.4, memberCount: 2_360_000, regions: ['TX', 'FL', 'PA', 'NJ'] },
  { id: 'cigna', name: 'Cigna Healthcare', shortName: 'Cigna', marketShare: 8.9, memberCount: 2_020_000, regions: ['TX', 'FL', 'TN', 'AZ'] },
  { id: 'humana', name: 'Humana', shortName: 'Humana', marketShare: 7.6, memberCount: 1_730_000, regions: ['FL', 'KY', 'TX', 'GA'] },
  { id: 'bcbs', name: 'Blue Cross Blue Shield', shortName: 'BCBS', marketShare: 9.7, memberCount: 2_200_000, regions: ['IL', 'TX', 'MI', 'NC'] },
  { id: 'molina', name: 'Molina Healthcare', shortName: 'Molina', marketShare: 4.3, memberCount: 980_000, regions: ['CA', 'WA', 'NM', 'TX'] },
  { id: 'centene', name: 'Centene (Ambetter)', shortName: 'Centene', marketShare: 6.1, memberCount: 1_390_000, regions: ['FL', 'GA', 'MO', 'TX'] },
  { id: 'healthnet', name: 'Health Net', shortName: 'Health Net', marketShare: 3.2, memberCount: 730_000, regions: ['CA', 'AZ', 'OR'] },
];

/** The competitors, in the order of SAMPLE_INSURERS. */
export const SAMPLE_COMPETITORS = SAMPLE_INSURERS.filter((i) => i.id !== REFERENCE_INSURER) as Array<
  SampleInsurer & { id: CompetitorId }
>;

/** Competitors preselected on the sample comparison. */
export const DEFAULT_COMPARISON_INSURERS: readonly CompetitorId[] = ['unitedhealth', 'kaiser', 'aetna'];

/** Insurer by id; throws for an unknown id (a programming error). */
export function insurerById(id: InsurerId): SampleInsurer {
  const found = SAMPLE_INSURERS.find((i) => i.id === id);
  if (!found) throw new Error(`invalid insurer id: ${id}`);
  return found;
}
