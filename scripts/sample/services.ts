/** The sample's service catalogue (docs/screens.md, Constants) and its `services.csv` (docs/converter.md, The catalog). */
import { csvText } from './csv';
import { GENERATED_SERVICES, NAMED_SERVICES, type SampleCategory, type ServiceRow } from './services-data';

/** One service of the sample. Prices are national bases in USD (see services-data.ts). */
export interface SampleService {
  /** Billing code as text (leading zeros would be kept). */
  code: string;
  /** `CPT`, or `HCPCS` for Level II codes (a letter first). */
  codeType: 'CPT' | 'HCPCS';
  name: string;
  description: string;
  category: SampleCategory;
  keywords: string[];
  /** Professional base rate, USD; null when not billed professionally. */
  prof: number | null;
  /** Institutional base rate, USD; null when not billed by facilities. */
  inst: number | null;
  /** Done in a facility: professional place of service 21/22/24 rather than 11. */
  facility: boolean;
  /** Inpatient-capable: v2 `setting: both`, may carry `per diem` rows. */
  inpatient: boolean;
  /** Has a professional/technical split (modifiers 26 and TC). */
  pctc: boolean;
  /** One of the five named codes (99203, 70551, 45378, 71020, 85025). */
  named: boolean;
}

/** Number of generated services per category, docs/screens.md (Constants). */
export const GENERATED_COUNTS: Readonly<Record<SampleCategory, number>> = {
  Cardiac: 25,
  Lab: 30,
  Surgical: 35,
  Radiology: 20,
  'Office visit': 15,
  Emergency: 10,
};

function toService(category: SampleCategory, row: ServiceRow, named: boolean): SampleService {
  const [code, name, description, keywords, prof, inst, flags] = row;
  return {
    code,
    codeType: /^\d/.test(code) ? 'CPT' : 'HCPCS',
    name,
    description,
    category,
    keywords: keywords.split(';'),
    prof,
    inst,
    facility: flags.includes('F'),
    inpatient: flags.includes('I'),
    pctc: flags.includes('M'),
    named,
  };
}

/**
 * All 140 services: the five named ones first, then the generated ones by category.
 * Throws if the data table does not hold the counts of GENERATED_COUNTS or a code repeats.
 */
export function sampleServices(): SampleService[] {
  const out = NAMED_SERVICES.map(([cat, row]) => toService(cat, row, true));
  for (const [cat, count] of Object.entries(GENERATED_COUNTS) as Array<[SampleCategory, number]>) {
    const rows = GENERATED_SERVICES[cat];
    if (rows.length !== count) throw new Error(`services: ${cat} has ${rows.length} codes, expected ${count}`);
    out.push(...rows.map((r) => toService(cat, r, false)));
  }
  if (new Set(out.map((s) => s.code)).size !== out.length) throw new Error('services: duplicate code');
  return out;
}

/** `services.csv`: header `billing_code,name,category,description,keywords`, keywords joined by `;`. */
export function servicesCsv(services: readonly SampleService[]): string {
  return csvText(
    ['billing_code', 'name', 'category', 'description', 'keywords'],
    services.map((s) => [s.code, s.name, s.category, s.description, s.keywords.join(';')]),
  );
}
