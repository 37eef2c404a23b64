/**
 * Kinds of provider organisations (a TIN and its NPIs) in the sample, with NUCC taxonomy codes
 * (NUCC Health Care Provider Taxonomy code set) and the services each kind prices.
 */
import type { SampleCategory } from './services-data';

export type PracticeKind =
  | 'hospital' | 'primary' | 'solo' | 'cardiology' | 'radiology' | 'imaging' | 'lab'
  | 'ortho' | 'gastro' | 'surgery' | 'emergency' | 'asc' | 'urgent';

export interface KindSpec {
  /** Taxonomy of the organisation NPI (entity type 2); null: the TIN has no organisation NPI. */
  orgTaxonomy: string | null;
  /** Taxonomies the individual NPIs (entity type 1) draw from. */
  people: readonly string[];
  /** Inclusive range of individual NPIs. */
  size: readonly [number, number];
  /** Words ending the organisation's name. */
  suffixes: readonly string[];
  /** Service categories the kind is paid for. */
  categories: readonly SampleCategory[];
  /**
   * How it bills: `professional` (CMS-1500 claims), `institutional` (UB-04 facility claims) or
   * `hospital` (facility claims, plus professional claims of its emergency physicians).
   */
  billing: 'professional' | 'institutional' | 'hospital';
  /** Place-of-service codes of its professional rows (CMS POS code set). */
  pos: readonly string[];
}

/** Every kind. A hospital has at least one employed physician: its emergency department is staffed. */
export const KINDS: Readonly<Record<PracticeKind, KindSpec>> = {
  hospital: { orgTaxonomy: '282N00000X', people: ['207P00000X', '2085R0202X', '208600000X'], size: [1, 3], suffixes: ['MEDICAL CENTER', 'REGIONAL HOSPITAL', 'COMMUNITY HOSPITAL'], categories: ['Emergency', 'Cardiac', 'Lab', 'Radiology', 'Surgical'], billing: 'hospital', pos: ['23'] },
  primary: { orgTaxonomy: '261QP2300X', people: ['207Q00000X', '207R00000X', '207Q00000X', '363LF0000X'], size: [1, 5], suffixes: ['FAMILY MEDICINE', 'PRIMARY CARE ASSOCIATES', 'INTERNAL MEDICINE GROUP'], categories: ['Office visit', 'Lab'], billing: 'professional', pos: ['11'] },
  solo: { orgTaxonomy: null, people: ['207Q00000X', '207R00000X'], size: [1, 1], suffixes: [], categories: ['Office visit', 'Lab'], billing: 'professional', pos: ['11'] },
  cardiology: { orgTaxonomy: '193400000X', people: ['207RC0000X'], size: [1, 4], suffixes: ['HEART AND VASCULAR ASSOCIATES', 'CARDIOLOGY GROUP'], categories: ['Cardiac', 'Office visit'], billing: 'professional', pos: ['11'] },
  radiology: { orgTaxonomy: '193400000X', people: ['2085R0202X'], size: [2, 5], suffixes: ['RADIOLOGY ASSOCIATES', 'RADIOLOGY MEDICAL GROUP'], categories: ['Radiology'], billing: 'professional', pos: ['11'] },
  imaging: { orgTaxonomy: '261QR0200X', people: ['2085R0202X'], size: [0, 1], suffixes: ['IMAGING CENTER', 'DIAGNOSTIC IMAGING'], categories: ['Radiology'], billing: 'professional', pos: ['11'] },
  lab: { orgTaxonomy: '291U00000X', people: [], size: [0, 0], suffixes: ['CLINICAL LABORATORY', 'DIAGNOSTIC LABORATORIES'], categories: ['Lab'], billing: 'professional', pos: ['81'] },
  ortho: { orgTaxonomy: '193400000X', people: ['207X00000X'], size: [1, 4], suffixes: ['ORTHOPAEDIC SPECIALISTS', 'BONE AND JOINT INSTITUTE'], categories: ['Surgical', 'Office visit'], billing: 'professional', pos: ['11'] },
  gastro: { orgTaxonomy: '193400000X', people: ['207RG0100X'], size: [1, 4], suffixes: ['GASTROENTEROLOGY ASSOCIATES', 'DIGESTIVE HEALTH CENTER'], categories: ['Surgical', 'Office visit'], billing: 'professional', pos: ['11'] },
  surgery: { orgTaxonomy: '193200000X', people: ['208600000X', '207V00000X'], size: [1, 4], suffixes: ['SURGICAL ASSOCIATES', 'SURGICAL SPECIALISTS'], categories: ['Surgical', 'Office visit'], billing: 'professional', pos: ['11'] },
  emergency: { orgTaxonomy: '193400000X', people: ['207P00000X'], size: [2, 5], suffixes: ['EMERGENCY PHYSICIANS MEDICAL GROUP', 'EMERGENCY ASSOCIATES'], categories: ['Emergency'], billing: 'professional', pos: ['23'] },
  asc: { orgTaxonomy: '261QA1903X', people: [], size: [0, 0], suffixes: ['SURGERY CENTER', 'AMBULATORY SURGERY CENTER'], categories: ['Surgical'], billing: 'institutional', pos: [] },
  urgent: { orgTaxonomy: '261QU0200X', people: ['207Q00000X'], size: [0, 2], suffixes: ['URGENT CARE'], categories: ['Office visit', 'Lab'], billing: 'professional', pos: ['20'] },
};

/** The order in which a state's organisations are created (cycled until the state's NPIs are used). */
export const KIND_SEQUENCE: readonly PracticeKind[] = [
  'hospital', 'primary', 'radiology', 'cardiology', 'lab', 'ortho', 'imaging', 'gastro', 'emergency',
  'solo', 'asc', 'primary', 'urgent', 'surgery', 'hospital', 'solo', 'primary', 'cardiology',
];
