/**
 * The ten insurers of the sample (the sample insurer ids of docs/screens.md, Entities) and how each one writes its
 * in-network-rates files. The mix of schema versions and layouts makes the converter meet every
 * shape of the CMS schema: v1.0.0 with inline `provider_groups` in negotiated rates, v1.x with
 * root `provider_references` (0-based, sparse, or decimal ids with significant trailing zeros as
 * Anthem/CareFirst publish them), and v2.0.0 with `setting`, `network_name`, `tin.business_name`.
 */

export type SchemaVersion = '1.0.0' | '1.3.1' | '2.0.0';

export interface SampleInsurer {
  id: string;
  /** The product's name (docs/converter.md, Products). */
  name: string;
  /** The company, when it sells several products of the sample (the catalog's `group`). */
  group?: string;
  shortName: string;
  /** 0..1; the ten sum to 0.89. */
  marketShare: number;
  memberCount: number;
  /** States where it has a network (two-letter codes). */
  regions: string[];
  reportingEntityName: string;
  reportingEntityType: string;
  /** The `version` its files claim (and are valid against). */
  version: SchemaVersion;
  /** v1 only: provider groups inline in each negotiated rate, or root `provider_references`. */
  layout: 'inline' | 'references';
  /** Style of `provider_group_id`: 0,1,2...; increasing with gaps; decimals like `12.50`. */
  idStyle: 'zero-based' | 'sparse' | 'decimal';
  /** Price level relative to the market (1 = market); the reference insurer's is calibrated. */
  priceLevel: number;
  /** Professional rows are a state fee schedule: `fee schedule`, no per-provider variation. */
  feeSchedule: boolean;
  /** UHC-platform habits: `billing_code_modifier: []`, `additional_information: ""`, EIN without hyphen. */
  emptyFields: boolean;
  /** Item names upper-cased (claims-system style). */
  upperNames: boolean;
  /** Probability that an organisation in its regions is in its network. */
  networkShare: number;
  /** v2 `network_name` of its provider references. */
  networkNames: string[];
  /** Single-plan header fields (schema: all or none); absent for a multi-plan file. */
  plan?: Record<string, string>;
}

const I = (s: Partial<SampleInsurer> & Pick<SampleInsurer, 'id' | 'name' | 'shortName' | 'marketShare' | 'regions' | 'reportingEntityName' | 'version'>): SampleInsurer => ({
  memberCount: Math.round((s.marketShare * 26_000_000) / 1000) * 1000,
  reportingEntityType: 'health insurance issuer',
  layout: 'references',
  idStyle: 'sparse',
  priceLevel: 1,
  feeSchedule: false,
  emptyFields: false,
  upperNames: false,
  networkShare: 0.75,
  networkNames: [],
  ...s,
});

/** The reference insurer of the sample (docs/converter.md, The catalog: `reference_insurer`). */
export const REFERENCE_INSURER = 'anthem';

export const SAMPLE_INSURERS: readonly SampleInsurer[] = [
  I({ id: 'anthem', name: 'Anthem Blue Cross', shortName: 'Anthem', marketShare: 0.17, regions: ['CA', 'NY', 'TX', 'FL', 'IL', 'GA', 'OH'], reportingEntityName: 'Anthem Blue Cross', reportingEntityType: 'Health Insurance Network', version: '1.3.1', idStyle: 'decimal', networkShare: 0.85, plan: { plan_name: 'Anthem Blue Cross PPO', plan_id_type: 'HIOS', plan_id: '27603CA012', plan_market_type: 'group' } }),
  I({ id: 'unitedhealth', name: 'UnitedHealthcare', shortName: 'UHC', marketShare: 0.15, regions: ['CA', 'NY', 'TX', 'FL', 'IL', 'GA', 'OH', 'WA', 'AZ', 'PA'], reportingEntityName: 'UnitedHealthcare Insurance Company', reportingEntityType: 'Insurer', version: '1.3.1', idStyle: 'zero-based', priceLevel: 1.06, emptyFields: true, upperNames: true, networkShare: 0.8 }),
  I({ id: 'kaiser', name: 'Kaiser Permanente', shortName: 'Kaiser', marketShare: 0.12, regions: ['CA', 'WA', 'GA'], reportingEntityName: 'Kaiser Foundation Health Plan, Inc.', version: '1.0.0', layout: 'inline', priceLevel: 0.9, feeSchedule: true }),
  I({ id: 'aetna', name: 'Aetna', shortName: 'Aetna', marketShare: 0.09, regions: ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'AZ', 'OH'], reportingEntityName: 'Aetna Life Insurance Company', version: '2.0.0', priceLevel: 1.08, networkNames: ['Aetna Choice POS II', 'Aetna Open Access Managed Choice'], plan: { plan_name: 'Aetna Open Access Managed Choice', plan_id_type: 'hios', plan_id: '77422NY004', plan_market_type: 'group', issuer_name: 'Aetna Life Insurance Company' } }),
  I({ id: 'cigna', name: 'Cigna Healthcare', shortName: 'Cigna', marketShare: 0.07, regions: ['CA', 'TX', 'FL', 'IL', 'GA', 'AZ', 'PA', 'NY'], reportingEntityName: 'Cigna Health and Life Insurance Company', reportingEntityType: 'Health Insurance Issuer', version: '1.3.1', priceLevel: 1.12, networkShare: 0.65 }),
  I({ id: 'humana', name: 'Humana', shortName: 'Humana', marketShare: 0.06, regions: ['TX', 'FL', 'IL', 'GA', 'OH', 'AZ'], reportingEntityName: 'Humana Insurance Company', version: '1.0.0', layout: 'inline', priceLevel: 0.95, networkShare: 0.7 }),
  I({ id: 'bcbs', name: 'Blue Cross Blue Shield', shortName: 'BCBS', marketShare: 0.11, regions: ['TX', 'IL', 'FL', 'PA', 'AZ', 'WA'], reportingEntityName: 'Health Care Service Corporation', version: '1.0.0', idStyle: 'sparse', networkShare: 0.85 }),
  I({ id: 'molina', name: 'Molina Healthcare', shortName: 'Molina', marketShare: 0.04, regions: ['CA', 'TX', 'FL', 'IL', 'NY', 'OH', 'WA'], reportingEntityName: 'Molina Healthcare, Inc.', version: '1.0.0', layout: 'inline', priceLevel: 0.8, feeSchedule: true, networkShare: 0.6 }),
  I({ id: 'centene', name: 'Ambetter', group: 'Centene', shortName: 'Ambetter', marketShare: 0.05, regions: ['TX', 'FL', 'GA', 'IL', 'AZ', 'OH', 'PA', 'WA'], reportingEntityName: 'Celtic Insurance Company', version: '2.0.0', priceLevel: 0.85, networkShare: 0.6, networkNames: ['Ambetter Essential Care', 'Ambetter Value'] }),
  I({ id: 'healthnet', name: 'Health Net', group: 'Centene', shortName: 'Health Net', marketShare: 0.03, regions: ['CA', 'AZ'], reportingEntityName: 'Health Net of California, Inc.', version: '2.0.0', idStyle: 'zero-based', priceLevel: 0.92, networkShare: 0.7, networkNames: ['Health Net PPO', 'Health Net EnhancedCare PPO'] }),
];

/** Snapshot months of the sample (`YYYY-MM`), oldest first; each file's `last_updated_on` is the 1st. */
export const SNAPSHOTS: readonly string[] = ['2025-08', '2025-09', '2025-10', '2025-11'];
