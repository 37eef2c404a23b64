/**
 * The sample's providers: exactly 118 NPIs (individuals and organisations) in ten states, grouped
 * into organisations that each bill under one TIN (1-10 NPIs), plus a few TIN-only organisations
 * that appear in v1 files as `npi: [0]` and have no NPI at all.
 */
import { npiWithCheckDigit } from './npi';
import { KIND_SEQUENCE, KINDS, type PracticeKind } from './practice-kinds';
import { FIRST_NAMES_F, FIRST_NAMES_M, LAST_NAMES, PLACE_WORDS, STATES, STREETS, type SampleCity } from './places-data';
import { rngFor, type Rng } from './rng';

/** One NPI of the registry (NPPES columns, see registry.ts). */
export interface SampleProvider {
  npi: string;
  /** NPPES Entity Type Code: 1 individual, 2 organisation. */
  entityType: 1 | 2;
  orgName: string;
  lastName: string;
  firstName: string;
  credential: string;
  gender: '' | 'M' | 'F';
  taxonomy: string;
  state: string;
  city: SampleCity;
  address: string;
  phone: string;
  /** MM/DD/YYYY as NPPES writes dates. */
  enumerated: string;
  updated: string;
  practiceId: string;
  /** NPPES 'Is Sole Proprietor' (individuals only). */
  soleProprietor: boolean;
}

/** An organisation billing under one TIN: the provider group of the in-network files. */
export interface SamplePractice {
  id: string;
  kind: PracticeKind;
  /** Legal business name, upper case as NPPES holds it. */
  name: string;
  state: string;
  city: SampleCity;
  /** `ein` as `NN-NNNNNNN`, or `npi` (a sole proprietor's own NPI). */
  tin: { type: 'ein' | 'npi'; value: string };
  npis: string[];
  /** Contracted by TIN only: no NPI, written `npi: [0]`. */
  tinOnly: boolean;
  /** Multiplier on this organisation's facility (institutional) rates: its market power. */
  facilityFactor: number;
}

export interface ProviderUniverse {
  practices: SamplePractice[];
  providers: SampleProvider[];
}

/** IRS campus EIN prefixes (a valid first two digits of an EIN). */
const EIN_PREFIXES = ['20', '26', '27', '33', '45', '46', '47', '52', '56', '61', '62', '68', '75', '81', '82', '84', '86', '88', '94', '95'];

/** TIN-only organisations: (kind, state). */
const TIN_ONLY: ReadonlyArray<readonly [PracticeKind, string]> = [['primary', 'CA'], ['ortho', 'TX'], ['primary', 'FL'], ['imaging', 'NY']];

function date(rng: Rng, fromYear: number, toYear: number): string {
  const m = String(rng.int(1, 12)).padStart(2, '0');
  const d = String(rng.int(1, 28)).padStart(2, '0');
  return `${m}/${d}/${rng.int(fromYear, toYear)}`;
}

class Builder {
  readonly practices: SamplePractice[] = [];
  readonly providers: SampleProvider[] = [];
  private readonly npis = new Set<string>();
  private readonly names = new Set<string>();

  newNpi(rng: Rng): string {
    for (;;) {
      const npi = npiWithCheckDigit(`1${String(rng.int(0, 99_999_999)).padStart(8, '0')}`);
      if (!this.npis.has(npi)) return this.npis.add(npi), npi;
    }
  }

  orgName(rng: Rng, state: string, kind: PracticeKind): string {
    const words = PLACE_WORDS[state] ?? ['Central'];
    for (;;) {
      const name = `${rng.pick(words).toUpperCase()} ${rng.pick(KINDS[kind].suffixes)}`;
      if (!this.names.has(name)) return this.names.add(name), name;
    }
  }

  practice(state: string, kind: PracticeKind, people: number, tinOnly: boolean): void {
    const id = `p${this.practices.length + 1}`;
    const rng = rngFor('practice', id);
    const spec = KINDS[kind];
    const city = rng.pick(STATES.find((s) => s.state === state)?.cities ?? []);
    const base = { state, city, practiceId: id, address: `${rng.int(100, 9899)} ${rng.pick(STREETS)}`, phone: `${city.areaCode}${rng.int(2000000, 9899999)}` };
    const npis: string[] = [];
    let name = kind === 'solo' ? '' : this.orgName(rng, state, kind);
    if (spec.orgTaxonomy && !tinOnly) {
      const npi = this.newNpi(rng);
      npis.push(npi);
      this.providers.push({ ...base, npi, entityType: 2, orgName: name, lastName: '', firstName: '', credential: '', gender: '', taxonomy: spec.orgTaxonomy, soleProprietor: false, enumerated: date(rng, 2005, 2012), updated: date(rng, 2019, 2024) });
    }
    for (let i = 0; i < people && !tinOnly; i++) {
      const gender = rng.chance(0.5) ? 'F' : 'M';
      const taxonomy = rng.pick(spec.people);
      const person = { firstName: rng.pick(gender === 'F' ? FIRST_NAMES_F : FIRST_NAMES_M), lastName: rng.pick(LAST_NAMES) };
      const credential = taxonomy.startsWith('363L') ? 'NP' : rng.chance(0.85) ? 'M.D.' : 'D.O.';
      const npi = this.newNpi(rng);
      npis.push(npi);
      this.providers.push({ ...base, ...person, npi, entityType: 1, orgName: '', credential, gender, taxonomy, soleProprietor: kind === 'solo', enumerated: date(rng, 2006, 2022), updated: date(rng, 2020, 2025) });
      if (kind === 'solo') name = `${person.firstName} ${person.lastName} ${credential.replace(/\./g, '')}`;
    }
    const ein = `${rng.pick(EIN_PREFIXES)}-${String(rng.int(1_000_000, 9_999_999))}`;
    const tin = kind === 'solo' ? { type: 'npi' as const, value: npis[0] ?? '' } : { type: 'ein' as const, value: ein };
    const facilityFactor = kind === 'hospital' ? rng.range(0.9, 1.35) : rng.range(0.85, 1.1);
    this.practices.push({ id, kind, name, state, city, tin, npis, tinOnly, facilityFactor });
  }
}

/**
 * Builds the provider universe (deterministic). Each state's NPI quota (places-data.ts) is filled
 * with organisations in KIND_SEQUENCE order, skipping a kind whose minimum size no longer fits.
 * Throws if the total is not 118 NPIs.
 */
export function sampleProviders(): ProviderUniverse {
  const b = new Builder();
  for (const { state, npis } of STATES) {
    const rng = rngFor('state', state);
    let remaining = npis;
    for (let k = 0; remaining > 0; k++) {
      const kind = KIND_SEQUENCE[k % KIND_SEQUENCE.length] ?? 'solo';
      const spec = KINDS[kind];
      const org = spec.orgTaxonomy ? 1 : 0;
      if (org + spec.size[0] > remaining || org + spec.size[1] === 0) continue;
      const people = Math.min(rng.int(spec.size[0], spec.size[1]), remaining - org);
      b.practice(state, kind, people, false);
      remaining -= org + people;
    }
  }
  for (const [kind, state] of TIN_ONLY) b.practice(state, kind, 0, true);
  if (b.providers.length !== 118) throw new Error(`providers: ${b.providers.length} NPIs, expected 118`);
  return { practices: b.practices, providers: b.providers };
}
