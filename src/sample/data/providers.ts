/**
 * The 118 sample providers, docs/screens.md (Entities): the ten insurers, then 60
 * hospitals and 48 clinics named from a fixed list of places, with seeded networks, ratings and
 * specialties so every load shows the same list.
 */
import { SAMPLE_INSURERS } from './insurers';
import { seededRandom } from './prng';

export type ProviderType = 'insurer' | 'hospital' | 'clinic';

export interface SampleProvider {
  id: string;
  name: string;
  shortName: string;
  type: ProviderType;
  /** Percent of the sample market (insurers), or of the local market (facilities). */
  marketShare: number;
  memberCount: number;
  /** Two-letter state codes. */
  regions: string[];
  network: string;
  /** 1 to 5 stars, one decimal. */
  rating: number;
  specialties: string[];
  keywords: string[];
}

const PLACES: Array<[string, string]> = [
  ['Riverside', 'CA'], ['Lakeview', 'IL'], ['Cedar Valley', 'IA'], ['Mercy', 'OH'], ["St. Luke's", 'TX'],
  ['Summit', 'CO'], ['Bayview', 'FL'], ['Pinecrest', 'NC'], ['Harbor', 'WA'], ['Sunrise', 'NV'],
  ['Oakwood', 'GA'], ['Fairview', 'NY'],
];
const HOSPITAL_FORMS = ['Medical Center', 'General Hospital', 'Regional Hospital', 'Community Hospital', 'University Hospital'];
const CLINIC_FORMS = ['Family Clinic', 'Urgent Care', 'Cardiology Associates', 'Imaging Center'];
const NETWORKS = ['PPO Select', 'HMO Plus', 'EPO Choice', 'Open Access'];
const SPECIALTIES = [
  'Internal Medicine', 'Family Medicine', 'Cardiology', 'Orthopedics', 'Radiology', 'Pediatrics',
  'Oncology', 'Emergency Medicine', 'Gastroenterology', 'Neurology',
];

function initials(name: string): string {
  return name.split(/\s+/).map((w) => w[0]).join('').replace(/[^A-Z]/g, '');
}

function facilities(): SampleProvider[] {
  const random = seededRandom(118);
  const out: SampleProvider[] = [];
  const add = (type: ProviderType, place: [string, string], form: string) => {
    const name = `${place[0]} ${form}`;
    const first = Math.floor(random() * SPECIALTIES.length);
    const specialties = [SPECIALTIES[first], SPECIALTIES[(first + 3) % SPECIALTIES.length]].filter(
      (s): s is string => s !== undefined,
    );
    out.push({
      id: `${type}-${out.length + 1}`, name, shortName: `${initials(place[0])} ${initials(form)}`, type,
      marketShare: Math.round((0.5 + random() * 6) * 10) / 10,
      memberCount: Math.round(5_000 + random() * 95_000),
      regions: [place[1]], network: NETWORKS[Math.floor(random() * NETWORKS.length)] ?? 'PPO Select',
      rating: Math.round((3 + random() * 2) * 10) / 10, specialties,
      keywords: [type, place[0].toLowerCase(), form.toLowerCase()],
    });
  };
  for (const form of HOSPITAL_FORMS) for (const place of PLACES) add('hospital', place, form);
  for (const form of CLINIC_FORMS) for (const place of PLACES) add('clinic', place, form);
  return out;
}

/** All 118 providers: 10 insurers, 60 hospitals, 48 clinics. */
export const SAMPLE_PROVIDERS: readonly SampleProvider[] = [
  ...SAMPLE_INSURERS.map((i, n): SampleProvider => ({
    id: i.id, name: i.name, shortName: i.shortName, type: 'insurer', marketShare: i.marketShare,
    memberCount: i.memberCount, regions: i.regions, network: NETWORKS[n % NETWORKS.length] ?? 'PPO Select',
    rating: Math.round((3.4 + (n % 5) * 0.3) * 10) / 10, specialties: ['Health Plan'],
    keywords: ['insurer', 'health plan', 'payer'],
  })),
  ...facilities(),
];
