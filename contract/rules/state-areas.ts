/**
 * State-to-region map, docs/screens.md (Entities): FIPS code -> state name,
 * postal code, region and availability. The 51 valid state areas (50 states and DC) are
 * available; Puerto Rico is drawn but unavailable (greyed, not clickable).
 */

export type Region = 'West' | 'Southwest' | 'Northeast' | 'Southeast' | 'Midwest';

export const REGIONS: readonly Region[] = ['West', 'Southwest', 'Midwest', 'Southeast', 'Northeast'];

export interface StateArea {
  fips: string;
  name: string;
  code: string;
  region: Region;
  available: boolean;
}

type Row = [fips: string, code: string, name: string, region: Region];

const ROWS: Row[] = [
  ['01', 'AL', 'Alabama', 'Southeast'], ['02', 'AK', 'Alaska', 'West'], ['04', 'AZ', 'Arizona', 'Southwest'],
  ['05', 'AR', 'Arkansas', 'Southeast'], ['06', 'CA', 'California', 'West'], ['08', 'CO', 'Colorado', 'West'],
  ['09', 'CT', 'Connecticut', 'Northeast'], ['10', 'DE', 'Delaware', 'Northeast'],
  ['11', 'DC', 'District of Columbia', 'Northeast'], ['12', 'FL', 'Florida', 'Southeast'],
  ['13', 'GA', 'Georgia', 'Southeast'], ['15', 'HI', 'Hawaii', 'West'], ['16', 'ID', 'Idaho', 'West'],
  ['17', 'IL', 'Illinois', 'Midwest'], ['18', 'IN', 'Indiana', 'Midwest'], ['19', 'IA', 'Iowa', 'Midwest'],
  ['20', 'KS', 'Kansas', 'Midwest'], ['21', 'KY', 'Kentucky', 'Southeast'], ['22', 'LA', 'Louisiana', 'Southeast'],
  ['23', 'ME', 'Maine', 'Northeast'], ['24', 'MD', 'Maryland', 'Northeast'], ['25', 'MA', 'Massachusetts', 'Northeast'],
  ['26', 'MI', 'Michigan', 'Midwest'], ['27', 'MN', 'Minnesota', 'Midwest'], ['28', 'MS', 'Mississippi', 'Southeast'],
  ['29', 'MO', 'Missouri', 'Midwest'], ['30', 'MT', 'Montana', 'West'], ['31', 'NE', 'Nebraska', 'Midwest'],
  ['32', 'NV', 'Nevada', 'West'], ['33', 'NH', 'New Hampshire', 'Northeast'], ['34', 'NJ', 'New Jersey', 'Northeast'],
  ['35', 'NM', 'New Mexico', 'Southwest'], ['36', 'NY', 'New York', 'Northeast'],
  ['37', 'NC', 'North Carolina', 'Southeast'], ['38', 'ND', 'North Dakota', 'Midwest'], ['39', 'OH', 'Ohio', 'Midwest'],
  ['40', 'OK', 'Oklahoma', 'Southwest'], ['41', 'OR', 'Oregon', 'West'], ['42', 'PA', 'Pennsylvania', 'Northeast'],
  ['44', 'RI', 'Rhode Island', 'Northeast'], ['45', 'SC', 'South Carolina', 'Southeast'],
  ['46', 'SD', 'South Dakota', 'Midwest'], ['47', 'TN', 'Tennessee', 'Southeast'], ['48', 'TX', 'Texas', 'Southwest'],
  ['49', 'UT', 'Utah', 'West'], ['50', 'VT', 'Vermont', 'Northeast'], ['51', 'VA', 'Virginia', 'Southeast'],
  ['53', 'WA', 'Washington', 'West'], ['54', 'WV', 'West Virginia', 'Southeast'], ['55', 'WI', 'Wisconsin', 'Midwest'],
  ['56', 'WY', 'Wyoming', 'West'],
];

/** FIPS -> state area: the 51 valid areas plus Puerto Rico (unavailable). */
export const STATE_AREAS: ReadonlyMap<string, StateArea> = new Map([
  ...ROWS.map(([fips, code, name, region]): [string, StateArea] => [fips, { fips, code, name, region, available: true }]),
  ['72', { fips: '72', code: 'PR', name: 'Puerto Rico', region: 'Southeast', available: false }],
]);

/** Number of valid state areas: 50 states and the District of Columbia. */
export const VALID_STATE_AREA_COUNT = ROWS.length;
