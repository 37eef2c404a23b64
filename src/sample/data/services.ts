/**
 * The sample service catalogue, docs/screens.md (Entities, Constants): 5 named services with fixed
 * prices plus 135 generated ones (25 cardiac, 30 lab, 35 surgical, 20 radiology, 15 office visit,
 * 10 emergency) from a seeded generator, so every load shows the same 140 services. Prices are USD
 * per service; `anthemVariance` is the percent by which Anthem's price exceeds `marketAverage`
 * (the mean of the nine competitors' prices).
 */
import { SAMPLE_COMPETITORS, type CompetitorId } from './insurers';
import { GENERATED_CATEGORIES } from './service-templates';
import { cents, seededRandom } from './prng';

export type ServiceCategory = 'Cardiac' | 'Laboratory' | 'Surgical' | 'Radiology' | 'Office Visit' | 'Emergency';

export interface SampleService {
  serviceCode: string;
  serviceName: string;
  category: ServiceCategory;
  description: string;
  /** The reference insurer's negotiated price, USD. */
  anthemPrice: number;
  /** Competitors' negotiated prices, USD. */
  marketPrices: Record<CompetitorId, number>;
  /** Mean of `marketPrices`, USD. */
  marketAverage: number;
  /** (anthemPrice - marketAverage) / marketAverage x 100, percent. */
  anthemVariance: number;
  /** The reference insurer's yearly claims for the service. */
  claimsVolume: number;
  cptCode: string;
  keywords: string[];
  /** ISO date. */
  lastUpdated: string;
}

interface Seed {
  code: string;
  name: string;
  category: ServiceCategory;
  description: string;
  keywords: string[];
  claimsVolume: number;
  anthem: number;
  /** unitedhealth, kaiser, aetna, cigna, humana, bcbs, molina, centene, healthnet. */
  market: [number, number, number, number, number, number, number, number, number];
}

const NAMED: Seed[] = [
  { code: '99203', name: 'Office Visit - New Patient (Level 3)', category: 'Office Visit', claimsVolume: 18_400,
    description: 'Office or outpatient visit for the evaluation of a new patient, low complexity',
    keywords: ['office', 'visit', 'new patient', 'evaluation', 'primary care'],
    anthem: 168, market: [142, 151, 139, 147, 136, 155, 128, 133, 140] },
  { code: '70551', name: 'MRI Brain without Contrast', category: 'Radiology', claimsVolume: 2_150,
    description: 'Magnetic resonance imaging of the brain without contrast material',
    keywords: ['mri', 'brain', 'imaging', 'head', 'neurology'],
    anthem: 1_420, market: [1_180, 1_095, 1_240, 1_150, 1_060, 1_210, 990, 1_030, 1_120] },
  { code: '45378', name: 'Colonoscopy, Diagnostic', category: 'Surgical', claimsVolume: 3_300,
    description: 'Flexible colonoscopy, diagnostic, with collection of specimens when performed',
    keywords: ['colonoscopy', 'endoscopy', 'screening', 'gastroenterology'],
    anthem: 1_985, market: [1_760, 1_690, 1_820, 1_745, 1_650, 1_800, 1_540, 1_610, 1_700] },
  { code: '71020', name: 'Chest X-Ray, 2 Views', category: 'Radiology', claimsVolume: 9_800,
    description: 'Radiologic examination of the chest, two views, frontal and lateral',
    keywords: ['x-ray', 'xray', 'chest', 'radiograph', 'imaging'],
    anthem: 96, market: [84, 79, 88, 82, 76, 86, 71, 74, 80] },
  { code: '85025', name: 'Complete Blood Count (CBC) with Differential', category: 'Laboratory', claimsVolume: 26_500,
    description: 'Blood count, complete (CBC), automated, with automated differential white cell count',
    keywords: ['cbc', 'blood', 'lab', 'hematology', 'test'],
    anthem: 34, market: [28, 27, 30, 29, 26, 31, 24, 25, 28] },
];

const ISO_DATES = ['2024-01-08', '2024-01-15', '2024-01-22', '2024-01-29'];

function build(seed: Seed, lastUpdated: string): SampleService {
  const marketPrices = Object.fromEntries(
    SAMPLE_COMPETITORS.map((c, i) => [c.id, seed.market[i] ?? 0]),
  ) as Record<CompetitorId, number>;
  const marketAverage = cents(seed.market.reduce((a, b) => a + b, 0) / seed.market.length);
  return {
    serviceCode: seed.code, serviceName: seed.name, category: seed.category, description: seed.description,
    anthemPrice: seed.anthem, marketPrices, marketAverage,
    anthemVariance: Math.round(((seed.anthem - marketAverage) / marketAverage) * 1000) / 10,
    claimsVolume: seed.claimsVolume, cptCode: seed.code, keywords: seed.keywords, lastUpdated,
  };
}

function generated(): SampleService[] {
  const random = seededRandom(20240115);
  const out: SampleService[] = [];
  for (const cat of GENERATED_CATEGORIES) {
    for (let i = 0; i < cat.count; i++) {
      const base = cat.names[i % cat.names.length] ?? cat.category;
      const qualifier = cat.qualifiers[Math.floor(i / cat.names.length)] ?? `variant ${i}`;
      const center = cat.basePrice * (0.6 + random() * 1.2);
      const market = SAMPLE_COMPETITORS.map(() => cents(center * (0.85 + random() * 0.3)));
      const avg = market.reduce((a, b) => a + b, 0) / market.length;
      // Anthem between 8 % under and 28 % over the market: the top-10 chart's axis ends at 30 %.
      const anthem = cents(avg * (0.92 + random() * 0.36));
      out.push(build({
        code: String(cat.firstCode + i), name: `${base}, ${qualifier}`, category: cat.category,
        description: `${base} (${qualifier.toLowerCase()}), ${cat.category.toLowerCase()} service`,
        keywords: [...cat.keywords, qualifier.toLowerCase()],
        claimsVolume: Math.round(cat.claimsBase * (0.3 + random() * 1.4)),
        anthem, market: market as Seed['market'],
      }, ISO_DATES[i % ISO_DATES.length] ?? '2024-01-15'));
    }
  }
  return out;
}

/** All 140 sample services: the 5 named ones first, then the generated ones by category. */
export const SAMPLE_SERVICES: readonly SampleService[] = [
  ...NAMED.map((s) => build(s, '2024-01-15')),
  ...generated(),
];

/** The categories of the catalogue, in display order. */
export const SERVICE_CATEGORIES: readonly ServiceCategory[] = [
  'Cardiac', 'Laboratory', 'Surgical', 'Radiology', 'Office Visit', 'Emergency',
];
