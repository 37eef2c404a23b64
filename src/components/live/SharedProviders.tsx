/**
 * The "At shared providers" option of the live comparison and the live dashboard (docs/methodology.md, Per
 * comparison unit, At shared providers): a checkbox styled like the screens' other toggles, with
 * its one-line explanation as tooltip and accessible description, and the note shown near the
 * figures while it is on, so a screenshot says which prices it shows.
 */
import { useId, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { SHARED_PROVIDERS_HELP } from '../../url-state/shared-providers';
import './live.css';

export interface SharedProvidersSwitchProps {
  checked: boolean;
  onChange(on: boolean): void;
  className?: string;
}

/** The switch's label. */
export const SHARED_PROVIDERS_LABEL = 'At shared providers';

export function SharedProvidersSwitch({ checked, onChange, className }: SharedProvidersSwitchProps): ReactElement {
  const helpId = useId();
  // The explanation is the checkbox's description (its name stays the label) and the label's tooltip.
  return (
    <>
      <label className={`check live-shared-switch${className ? ` ${className}` : ''}`} title={SHARED_PROVIDERS_HELP}>
        <input type="checkbox" checked={checked} aria-describedby={helpId} onChange={(e) => onChange(e.target.checked)} />
        <span>{SHARED_PROVIDERS_LABEL}</span>
      </label>
      <span id={helpId} className="visually-hidden">{SHARED_PROVIDERS_HELP}</span>
    </>
  );
}

/**
 * The note beside the figures while the option is on: `what` names them ('Prices', 'Figures'),
 * `extra` says what it leaves as it is (e.g. the alerts).
 */
export function SharedProvidersNote({ what, extra }: { what: string; extra?: string }): ReactElement {
  return (
    <p className="live-shared-note" role="note">
      <strong>{`${what} at shared providers:`}</strong>{' '}
      {`${SHARED_PROVIDERS_HELP}.`}{extra ? ` ${extra}` : ''}{' '}
      <Link className="live-method" to="/methodology#at-shared-providers">How</Link>
    </p>
  );
}
