/**
 * The two-letter USPS codes of the places a US health plan's claims and providers are in: the 50
 * states, the District of Columbia and the five inhabited territories (AS, GU, MP, PR, VI). The
 * converter accepts these, and only these, in a `state` column of its CSV inputs (docs/converter.md,
 * The catalog). The map's state areas (contract/rules/state-areas.ts) are a subset of them.
 */
export const USPS_STATE_CODES: readonly string[] = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'AS', 'GU', 'MP', 'PR', 'VI',
];
