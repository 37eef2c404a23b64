/**
 * Small pieces the live tables share for a comparison unit (docs/methodology.md, Per comparison unit):
 * its class, component and setting as badges, the 'low confidence' mark of a thin unit, the
 * '% of Medicare' figure beside a price, the validation mark of a rate row, and the service cell
 * (CMS name, the publishers' name when it differs, code, badges, category).
 */
import type { ReactElement, ReactNode } from 'react';
import type { MedicareBasis } from '../../../contract/api';
import type { ValidationReason, ValidationSettings } from '../../../contract/files/dataset';
import { formatPercent } from '../../../contract/rules/format';
import type { UnitKey } from '../../../contract/rules/metrics';
import {
  classLabel, classTitle, componentLabel, componentTitle, medicareBasisText, publishedNameToShow, settingLabel, settingTitle,
  unitText, validationLabel, validationTitle,
} from './unit-format';
import type { Confidence } from '../../../contract/rules/confidence';
import { ConfidenceBadge } from './ConfidenceParts';
import './unit.css';

/** The unit's three badges: `Professional` `Global` `Non-facility`. */
export function UnitBadges({ unit }: { unit: UnitKey }): ReactElement {
  return (
    <span className="unit-badges" role="group" aria-label={`Unit: ${unitText(unit)}`}>
      <span className={`unit-badge unit-badge--${unit.billing_class}`} title={classTitle(unit.billing_class)}>{classLabel(unit.billing_class)}</span>
      <span className="unit-badge" title={componentTitle(unit.component)}>{componentLabel(unit.component)}</span>
      <span className="unit-badge" title={settingTitle(unit.setting)}>{settingLabel(unit.setting)}</span>
    </span>
  );
}

/** The mark of a thin unit: 'Low confidence', its reason in the tooltip and the accessible name. */
export function ThinMark({ reason }: { reason: string | null }): ReactElement {
  const why = reason ?? 'too few providers behind its prices';
  return (
    <span className="unit-thin" role="note" aria-label={`Low confidence: ${why}`} title={`Low confidence: ${why}. Left out of the summary figures.`}>
      <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.4} strokeLinecap="round"
        strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M12 3l10 18H2L12 3z" /><path d="M12 10v4M12 17.5v.01" /></svg>
      Low confidence
    </span>
  );
}

/**
 * '% of Medicare' as a small figure under or beside a price: `147.6%`, '-' when null. The words
 * 'of Medicare' are read by screen readers and shown in the tooltip; the column header says it on
 * screen (MedicareHeader).
 */
export function MedicarePct({ value, basis, detail }: { value: number | null; basis?: MedicareBasis | null; detail?: string }): ReactElement {
  if (value === null) return <span className="medicare-pct medicare-pct--none" title="No Medicare benchmark">-<span className="visually-hidden"> of Medicare</span></span>;
  const where = medicareBasisText(basis);
  const title = `${formatPercent(value)} of Medicare${where ? ` (${where})` : ''}${detail ? `; ${detail}` : ''}`;
  return (
    <span className="medicare-pct" title={title}>
      {formatPercent(value)}<span className="visually-hidden"> of Medicare</span>
    </span>
  );
}

/** The validation result of a rate row: a visible mark with its reason when it failed, else 'Valid' (muted). */
export function ValidationMark({ reason, settings, dollar = true }: { reason: ValidationReason | null; settings?: ValidationSettings; dollar?: boolean }): ReactElement {
  if (!dollar) return <span className="muted" title="Not a dollar rate: never validated nor counted">-</span>;
  if (reason === null) return <span className="validation-ok" title="Passed every validation check">Valid</span>;
  return (
    <span className="validation-failed" title={validationTitle(reason, settings)}>
      <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.4} strokeLinecap="round"
        aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="9" /><path d="M8 8l8 8M16 8l-8 8" /></svg>
      <span className="visually-hidden">Failed validation: </span>
      {validationLabel(reason, settings)}
    </span>
  );
}

/** A column header with the note that the small figures under its prices are '% of Medicare'. */
export function MedicareHeader({ title }: { title: string }): ReactElement {
  return (
    <>
      {title}
      <span className="th-note">% of Medicare</span>
    </>
  );
}

/** A price with its '% of Medicare' under it. */
export function PriceWithMedicare({ price, pct, detail }: { price: ReactNode; pct: number | null; detail?: string }): ReactElement {
  return (
    <span className="price-mcr">
      <span className="price-mcr__price">{price}</span>
      <MedicarePct value={pct} detail={detail} />
    </span>
  );
}

export interface ServiceUnitCellProps {
  code: string;
  name: string;
  publishedName?: string | null;
  unit: UnitKey;
  category?: string;
  thin?: boolean;
  thinReason?: string | null;
  /** The unit's confidence and its reasons: its badge takes the place of the thin mark (a thin unit is low). */
  confidence?: { level: Confidence; reasons: readonly string[] };
}

/** Service cell of a unit's row: the name, the publishers' name when it differs, code and badges, category, and the confidence badge or the thin mark. */
export function ServiceUnitCell({ code, name, publishedName, unit, category, thin, thinReason, confidence }: ServiceUnitCellProps): ReactElement {
  const published = publishedNameToShow(name, publishedName);
  return (
    <>
      <span className="service-name">{name || code}</span>
      {published && <span className="service-published" title="The name most often used for this code in the insurers' files">{`Published as: ${published}`}</span>}
      <span className="service-meta">
        <span className="service-code">{code}</span>
        {category && <span className="service-category">{category}</span>}
        <UnitBadges unit={unit} />
      </span>
      {confidence ? (
        <span className="unit-thin-line"><ConfidenceBadge confidence={confidence.level} reasons={confidence.reasons} thin={thin === true} /></span>
      ) : thin && <span className="unit-thin-line"><ThinMark reason={thinReason ?? null} /></span>}
    </>
  );
}
