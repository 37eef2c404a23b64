/**
 * `npi-registry.csv`: the sample's NPIs in the column layout of the public NPPES Data Dissemination
 * file (a subset of its 330 columns, in NPPES order, every field double-quoted as NPPES writes them).
 * The converter reads the columns docs/converter.md (The catalog) names; the others make the file look like the real one.
 */
import { csvText } from './csv';
import type { SampleProvider } from './providers';
import { rngFor } from './rng';

export const NPPES_COLUMNS = [
  'NPI',
  'Entity Type Code',
  'Replacement NPI',
  'Employer Identification Number (EIN)',
  'Provider Organization Name (Legal Business Name)',
  'Provider Last Name (Legal Name)',
  'Provider First Name',
  'Provider Middle Name',
  'Provider Name Prefix Text',
  'Provider Name Suffix Text',
  'Provider Credential Text',
  'Provider First Line Business Practice Location Address',
  'Provider Second Line Business Practice Location Address',
  'Provider Business Practice Location Address City Name',
  'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code',
  'Provider Business Practice Location Address Country Code (If outside U.S.)',
  'Provider Business Practice Location Address Telephone Number',
  'Provider Enumeration Date',
  'Last Update Date',
  'NPI Deactivation Reason Code',
  'NPI Deactivation Date',
  'NPI Reactivation Date',
  'Provider Sex Code',
  'Healthcare Provider Taxonomy Code_1',
  'Provider License Number_1',
  'Provider License Number State Code_1',
  'Healthcare Provider Primary Taxonomy Switch_1',
  'Is Sole Proprietor',
  'Is Organization Subpart',
] as const;

/** The CSV text, one row per provider in the given order. */
export function registryCsv(providers: readonly SampleProvider[]): string {
  const rows = providers.map((p) => {
    const rng = rngFor('registry', p.npi);
    // NPPES often holds ZIP+4; about half the sample's rows do.
    const zip = rng.chance(0.5) ? `${p.city.zip}${String(rng.int(1000, 9999))}` : p.city.zip;
    const person = p.entityType === 1;
    const license = person ? `${p.state === 'CA' ? 'A' : ''}${rng.int(10000, 199999)}` : '';
    return [
      p.npi,
      String(p.entityType),
      '',
      '',
      p.orgName,
      p.lastName,
      p.firstName,
      person && rng.chance(0.4) ? rng.pick(['A', 'J', 'M', 'L', 'R']) : '',
      person && p.credential !== 'NP' ? 'DR.' : '',
      '',
      p.credential,
      p.address,
      rng.chance(0.3) ? `SUITE ${rng.int(100, 499)}` : '',
      p.city.city.toUpperCase(),
      p.state,
      zip,
      'US',
      p.phone,
      p.enumerated,
      p.updated,
      '',
      '',
      '',
      p.gender,
      p.taxonomy,
      license,
      person ? p.state : '',
      'Y',
      person ? (p.soleProprietor ? 'Y' : 'N') : 'X',
      person ? '' : 'N',
    ];
  });
  return csvText(NPPES_COLUMNS, rows, true);
}
