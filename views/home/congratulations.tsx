import { useEffect, useState } from 'react';
import type { Lng } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { ModalDialog } from '../components/modal-dialog.tsx';
import { Amount, withElements } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';

/** The winner's prize to congratulate on: the lottery's name in the page's language, the prize and where to claim it. */
export type CongratulationsProps = { prizeId: number; lottery: string; prizeMoney: number };

/** The browser-session flag: the congratulations show once per session (docs/rules/pages.md#5-home-page). */
export const CONGRATULATED_KEY = 'bhagya:congratulated';

/**
 * The congratulations modal of the home page: a logged-in player whose ticket won a prize he can still claim is
 * congratulated once per browser session, with the lottery, the prize and "Add Payment Info". Shown only in the
 * browser (the flag lives in session storage), so the server renders nothing and hydration adds it.
 */
export function Congratulations({ prizeId, lottery, prizeMoney }: CongratulationsProps) {
  const {
    t,
    i18n: { language },
  } = useTranslation('home');
  const lng = language as Lng;
  const [open, setOpen] = useState(false);
  useEffect(() => {
    try {
      if (window.sessionStorage.getItem(CONGRATULATED_KEY)) return;
      window.sessionStorage.setItem(CONGRATULATED_KEY, '1');
    } catch {
      return; // storage refused (private mode): better never than at every visit
    }
    setOpen(true);
  }, []);
  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <ModalDialog titleId="congrats-title" onClose={close} className="congrats">
      <svg className="congrats__icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M14 6h20v4h8v6c0 5.5-4 10-9.3 10.8A12 12 0 0 1 26 32.7V38h7v4H15v-4h7v-5.3a12 12 0 0 1-6.7-5.9C10 26 6 21.5 6 16v-6h8V6Zm0 8h-4v2c0 3.2 1.8 6 4.5 7.2A12 12 0 0 1 14 20v-6Zm20 0v6c0 1.1-.2 2.2-.5 3.2C36.2 22 38 19.2 38 16v-2h-4Z"
        />
      </svg>
      <h2 id="congrats-title">{t('congrats.title')}</h2>
      <p className="congrats__text">
        {withElements((v) => t('congrats.text', v), {
          lottery: <strong>{lottery}</strong>,
          prize: <Amount value={prizeMoney} lng={lng} />,
        })}
      </p>
      <div className="congrats__actions">
        <a className="btn btn-primary" href={paths.prizeClaim(prizeId)}>
          {t('congrats.claim')}
        </a>
        <button type="button" className="btn btn-ghost" onClick={close}>
          {t('common:actions.close')}
        </button>
      </div>
    </ModalDialog>
  );
}
