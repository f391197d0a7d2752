import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../i18n.tsx';
import { useCloseOnBack } from './close-on-back.ts';

export type DialogProps = {
  titleId: string;
  onClose?: () => void;
  dismissHref?: string;
  children: ReactNode;
  className?: string;
  id?: string;
  /** In the installed app, back closes the dialog (one whose opening did not change the address: close-on-back.ts). */
  closeOnBack?: boolean;
};

/**
 * An accessible modal on the native <dialog>: rendered open by the server (readable without JavaScript, with a
 * close link), then made modal in the browser by showModal(), which traps focus, closes on Escape and gives
 * focus back to where it was. A click on the backdrop closes it too.
 * No router here (and no react-router import: esbuild splits by file), so hydration islands can use it;
 * dialog.tsx adds router navigation for the app.
 */
export function ModalDialog({ titleId, onClose, dismissHref, children, className = '', id, closeOnBack = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();
  const close = () => {
    if (onClose) onClose();
    else if (dismissHref) window.location.assign(dismissHref);
  };
  useCloseOnBack(closeOnBack, close);

  // Made modal in the commit that shows it, before the browser paints: with an effect, a dialog opened by a client
  // navigation was on screen a frame or more before showModal(), and an Escape pressed then closed nothing.
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement as HTMLElement | null;
    if (d.open) d.close();
    d.showModal();
    document.body.classList.add('has-modal');
    return () => {
      document.body.classList.remove('has-modal');
      if (d.open) d.close();
      opener?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      id={id}
      open
      className={`dialog ${className}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="dialog__body">
        {dismissHref || onClose ? (
          <a
            className="dialog__close"
            href={dismissHref ?? '#'}
            role="button"
            aria-label={t('actions.close')}
            onClick={(e) => {
              e.preventDefault();
              close();
            }}
          >
            ×
          </a>
        ) : null}
        {children}
      </div>
    </dialog>
  );
}
