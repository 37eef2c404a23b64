/**
 * A modal dialog on the native `<dialog>` (showModal makes the page behind inert). Focus moves
 * into it on open, Tab and Shift+Tab cycle inside it, Escape or the close button closes it, and
 * focus returns to the element that had it before.
 */
import { useEffect, useId, useRef, type ReactElement, type ReactNode } from 'react';
import { CloseIcon } from '../Icons';
import './Dialog.css';

export interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, onClose, children }: DialogProps): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // The opener may be an SVG element (a state of the map): both kinds have focus().
    const active = document.activeElement;
    const previous = active instanceof HTMLElement || active instanceof SVGElement ? active : null;
    dialog.showModal();
    dialog.querySelector<HTMLElement>('.dialog__close')?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      previous?.focus();
    };
  }, []);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onKeyDown={onKeyDown}
      onClick={(e) => e.target === ref.current && onClose()}>
      <div className="dialog__panel">
        <div className="dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button dialog__close" aria-label="Close dialog" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="dialog__body">{children}</div>
      </div>
    </dialog>
  );
}
