/**
 * Texts of a comparison unit (docs/methodology.md, Per comparison unit: a service with its billing class,
 * component and setting), of a row's Medicare benchmark and of its validation result (docs/methodology.md,
 * Medicare benchmark, Validation), as the live screens show them. Pure.
 */
import type { MedicareBasis } from '../../../contract/api';
import { DEFAULT_VALIDATION, type ValidationReason, type ValidationSettings } from '../../../contract/files/dataset';
import type { UnitKey } from '../../../contract/rules/metrics';

// The order of units lives with the methodology's rules, so the worker sorts as the screens do.
export { compareCodeUnits, type CodeUnit } from '../../../contract/rules/metrics';

/** Badge text of a billing class: `Professional`, `Institutional`, `Both` (a unit of its own). */
export function classLabel(billingClass: string): string {
  const c = billingClass.toLowerCase();
  return c === 'professional' ? 'Professional' : c === 'institutional' ? 'Institutional' : c === 'both' ? 'Both' : billingClass;
}

/** Badge text of a component: `Global`, `26`, `TC`. */
export function componentLabel(component: string): string {
  return component === 'global' ? 'Global' : component;
}

/** Badge text of a setting: `Facility`, `Non-facility`. */
export function settingLabel(setting: string): string {
  return setting === 'facility' ? 'Facility' : setting === 'non-facility' ? 'Non-facility' : setting;
}

/** Longer descriptions for the badges' tooltips. */
export function classTitle(billingClass: string): string {
  const c = billingClass.toLowerCase();
  return c === 'professional' ? "Billing class: professional (a clinician's fee)"
    : c === 'institutional' ? "Billing class: institutional (a facility's fee)"
      : c === 'both' ? 'Billing class: both (published for either class; compared on its own)' : `Billing class: ${billingClass}`;
}

export function componentTitle(component: string): string {
  return component === '26' ? 'Component: professional component (modifier 26)'
    : component === 'TC' ? 'Component: technical component (modifier TC)'
      : component === 'global' ? 'Component: global (no 26 or TC modifier)' : `Component: ${component}`;
}

export function settingTitle(setting: string): string {
  return setting === 'facility' ? 'Setting: facility (every place of service is a facility, or an institutional rate)'
    : setting === 'non-facility' ? 'Setting: non-facility (office and other places of service)' : `Setting: ${setting}`;
}

/** The unit in one line: `Professional · Global · Non-facility`. */
export function unitText(u: UnitKey): string {
  return `${classLabel(u.billing_class)} · ${componentLabel(u.component)} · ${settingLabel(u.setting)}`;
}

/** The unit in a short line for tight places (chart labels): `Prof · Global · Non-fac`. */
export function unitShortText(u: UnitKey): string {
  const cls = u.billing_class === 'professional' ? 'Prof' : u.billing_class === 'institutional' ? 'Inst' : classLabel(u.billing_class);
  const setting = u.setting === 'facility' ? 'Fac' : u.setting === 'non-facility' ? 'Non-fac' : u.setting;
  return `${cls} · ${componentLabel(u.component)} · ${setting}`;
}

export { unitRowKey } from '../../../contract/rules/metrics';

const normalized = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The publishers' name to show beside the service name: null when absent or the same words. */
export function publishedNameToShow(serviceName: string, publishedName: string | null | undefined): string | null {
  if (!publishedName || !publishedName.trim()) return null;
  return normalized(publishedName) === normalized(serviceName) ? null : publishedName.trim();
}

/** Where a row's '% of Medicare' comes from, as the screens say it. */
export function medicareBasisText(basis: MedicareBasis | null | undefined): string {
  return basis === 'locality' ? "at provider's locality" : basis === 'national' ? 'national' : '';
}

/** A ratio bound as the screens write it: `0.3x`, `30x`. */
const times = (x: number) => `${Number(x.toPrecision(6))}x`;

/**
 * The visible mark of a rate that failed validation: 'Below 0.3x Medicare', 'Above 30x Medicare',
 * 'Source not in dollars', 'Outlier' (bounds from the dataset's settings).
 */
export function validationLabel(reason: ValidationReason, settings: ValidationSettings = DEFAULT_VALIDATION): string {
  switch (reason) {
    case 'source_not_dollars': return 'Source not in dollars';
    case 'below_benchmark': return `Below ${times(settings.min_ratio)} Medicare`;
    case 'above_benchmark': return `Above ${times(settings.max_ratio)} Medicare`;
    case 'outlier': return 'Outlier';
  }
}

/** What a validation reason means, for its tooltip. */
export function validationTitle(reason: ValidationReason, settings: ValidationSettings = DEFAULT_VALIDATION): string {
  const tail = ' It is listed but enters no price, average or figure.';
  switch (reason) {
    case 'source_not_dollars':
      return `Failed validation: the rates of its file sit at a median under ${times(settings.source_min_ratio)} Medicare, so its numbers are not dollar amounts.${tail}`;
    case 'below_benchmark': return `Failed validation: the rate is under ${times(settings.min_ratio)} its Medicare amount.${tail}`;
    case 'above_benchmark': return `Failed validation: the rate is over ${times(settings.max_ratio)} its Medicare amount.${tail}`;
    case 'outlier':
      return `Failed validation: no Medicare benchmark, and the rate is more than ${times(settings.outlier_factor)} away from the median of the code's other rates.${tail}`;
  }
}
