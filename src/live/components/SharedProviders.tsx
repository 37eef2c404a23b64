/**
 * The provider options of the live comparison and the live dashboard (docs/methodology.md, Per
 * comparison unit): "At shared providers" and "Where we bill it", checkboxes styled like the
 * screens' other toggles, each with its one-line explanation as tooltip and accessible
 * description; "Where we bill it" disabled, with its reason, when the claims name no providers.
 * The note shown near the figures while an option is on says which prices they are, so a
 * screenshot does too.
 */
import { useId, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { BILLED_UNAVAILABLE } from '../../../contract/files/dataset';
import { BILLED_HELP, SHARED_PROVIDERS_HELP, type ProviderOptionsState } from '../url-state/shared-providers';
import { useApi } from './use-api';
import './live.css';

/** The switches' labels. */
const SHARED_PROVIDERS_LABEL = 'At shared providers';
const BILLED_LABEL = 'Where we bill it';
/** What a disabled "Where we bill it" shows beside its label (the whole reason is its tooltip and description). */
const BILLED_UNAVAILABLE_SHORT = 'needs claims by provider';

interface OptionSwitchProps {
  label: string;
  help: string;
  checked: boolean;
  onChange(on: boolean): void;
  /** Why the option cannot be turned on; undefined when it can. */
  unavailable?: string | undefined;
}

function OptionSwitch({ label, help, checked, onChange, unavailable }: OptionSwitchProps): ReactElement {
  const helpId = useId();
  const description = unavailable === undefined ? help : `${help}. Unavailable: ${unavailable}.`;
  // The explanation is the checkbox's description (its name stays the label) and the label's tooltip.
  return (
    <>
      <label className={`check live-shared-switch${unavailable !== undefined ? ' live-shared-switch--off' : ''}`} title={description}>
        <input type="checkbox" checked={checked && unavailable === undefined} disabled={unavailable !== undefined}
          aria-describedby={helpId} onChange={(e) => onChange(e.target.checked)} />
        <span>{label}</span>
      </label>
      {/* outside the label, so that the checkbox's name stays the label; its description holds the whole reason */}
      {unavailable !== undefined && <span className="live-shared-switch__reason" aria-hidden="true">{`(${BILLED_UNAVAILABLE_SHORT})`}</span>}
      <span id={helpId} className="visually-hidden">{description}</span>
    </>
  );
}

/**
 * Whether "Where we bill it" can be on for the open dataset (`GET /api/coverage` claims_by_provider,
 * answered from the first view): true, false, or null while the answer loads.
 */
export function useBilledAvailable(): boolean | null {
  const coverage = useApi('GET /api/coverage', {});
  const data = coverage.data ?? coverage.previous;
  return data ? data.claims_by_provider : null;
}

export interface ProviderOptionSwitchesProps {
  options: ProviderOptionsState;
  onChange(change: Partial<ProviderOptionsState>): void;
  /** useBilledAvailable's answer, which the screen reads once for its requests too. */
  billedAvailable: boolean | null;
}

/** Both switches, side by side. */
export function ProviderOptionSwitches({ options, onChange, billedAvailable }: ProviderOptionSwitchesProps): ReactElement {
  return (
    <span className="live-provider-options">
      <OptionSwitch label={SHARED_PROVIDERS_LABEL} help={SHARED_PROVIDERS_HELP} checked={options.sharedProviders}
        onChange={(sharedProviders) => onChange({ sharedProviders })} />
      <OptionSwitch label={BILLED_LABEL} help={BILLED_HELP} checked={options.billed} onChange={(billed) => onChange({ billed })}
        unavailable={billedAvailable === false ? BILLED_UNAVAILABLE : undefined} />
    </span>
  );
}

/**
 * The note beside the figures while an option is on (none when both are off): `what` names them
 * ('Prices', 'Figures'), `extra` says what they leave as it is (e.g. the alerts).
 */
export function ProviderOptionsNote({ what, options, extra }: { what: string; options: ProviderOptionsState; extra?: string }): ReactElement | null {
  if (!options.sharedProviders && !options.billed) return null;
  const where = [options.sharedProviders ? 'at shared providers' : null, options.billed ? 'where we bill it' : null].filter(Boolean).join(', ');
  const help = [options.sharedProviders ? SHARED_PROVIDERS_HELP : null, options.billed ? BILLED_HELP : null].filter(Boolean).join('; ');
  return (
    <p className="live-shared-note" role="note">
      <strong>{`${what} ${where}:`}</strong>{' '}
      {`${help}.`}{extra ? ` ${extra}` : ''}{' '}
      <Link className="live-method" to={options.billed ? '/methodology#where-we-bill-it' : '/methodology#at-shared-providers'}>How</Link>
    </p>
  );
}
