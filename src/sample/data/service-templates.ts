/**
 * Templates of the 135 generated sample services, docs/screens.md (Constants): 25 cardiac, 30 lab,
 * 35 surgical, 20 radiology, 15 office visit, 10 emergency. A name is `<name>, <qualifier>`;
 * codes run from `firstCode` upwards; `basePrice` (USD) and `claimsBase` set the price level and
 * the yearly claims around which the seeded generator draws.
 */
import type { ServiceCategory } from './services';

export interface CategoryTemplate {
  category: ServiceCategory;
  count: number;
  firstCode: number;
  basePrice: number;
  claimsBase: number;
  names: string[];
  qualifiers: string[];
  keywords: string[];
}

const LEVELS = ['Standard', 'Complex', 'Follow-up', 'Bilateral', 'Limited', 'Extended', 'Pediatric'];

export const GENERATED_CATEGORIES: readonly CategoryTemplate[] = [
  { category: 'Cardiac', count: 25, firstCode: 93100, basePrice: 650, claimsBase: 2_400,
    names: ['Electrocardiogram', 'Echocardiography', 'Cardiac Stress Test', 'Holter Monitoring', 'Cardiac Catheterization'],
    qualifiers: LEVELS, keywords: ['cardiac', 'heart', 'cardiology'] },
  { category: 'Laboratory', count: 30, firstCode: 80100, basePrice: 45, claimsBase: 12_000,
    names: ['Metabolic Panel', 'Lipid Panel', 'Thyroid Panel', 'Urinalysis', 'Hemoglobin A1c', 'Vitamin D Assay'],
    qualifiers: LEVELS, keywords: ['lab', 'laboratory', 'test', 'blood'] },
  { category: 'Surgical', count: 35, firstCode: 10100, basePrice: 2_800, claimsBase: 900,
    names: ['Knee Arthroscopy', 'Cataract Removal', 'Hernia Repair', 'Gallbladder Removal', 'Carpal Tunnel Release'],
    qualifiers: LEVELS, keywords: ['surgery', 'surgical', 'procedure', 'outpatient'] },
  { category: 'Radiology', count: 20, firstCode: 70100, basePrice: 480, claimsBase: 3_000,
    names: ['CT Abdomen', 'CT Chest', 'Ultrasound Abdomen', 'Mammography'],
    qualifiers: LEVELS, keywords: ['imaging', 'radiology', 'scan'] },
  { category: 'Office Visit', count: 15, firstCode: 99400, basePrice: 160, claimsBase: 15_000,
    names: ['Office Visit - Established Patient', 'Preventive Visit', 'Telehealth Visit'],
    qualifiers: LEVELS, keywords: ['office', 'visit', 'primary care', 'consultation'] },
  { category: 'Emergency', count: 10, firstCode: 99281, basePrice: 900, claimsBase: 4_000,
    names: ['Emergency Department Visit', 'Critical Care'],
    qualifiers: LEVELS, keywords: ['emergency', 'er', 'urgent', 'critical'] },
];
