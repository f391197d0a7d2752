import { useState, useSyncExternalStore } from 'react';
import { paths } from '../../shared/paths.ts';
import { ModalDialog } from '../components/modal-dialog.tsx';
import { Amount, withElements } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';

/** The winner's prize to congratulate on: the lottery's name in the page's language, the prize and where to claim it. */
export type CongratulationsProps = { prizeId: number; lottery: string; prizeMoney: number };

/** The browser-session flag: the congratulations show once per session (docs/rules/pages.md#5-home-page). */
export const CONGRATULATED_KEY = 'bhagya:congratulated';

const noChange = () => () => {};
let firstTime: boolean | null = null;

/**
 * Whether this page load is the first of the browser session to congratulate (decided once, then kept): the flag in
 * session storage is set the moment it is read. Storage refused (private mode): never, rather than at every visit.
 */
function firstTimeThisSession(): boolean {
  if (firstTime === null) {
    try {
      firstTime = !window.sessionStorage.getItem(CONGRATULATED_KEY);
      if (firstTime) window.sessionStorage.setItem(CONGRATULATED_KEY, '1');
    } catch {
      firstTime = false;
    }
  }
  return firstTime;
}

/**
 * The congratulations modal of the home page: a logged-in player whose ticket won a prize he can still claim is
 * congratulated once per browser session, with the lottery, the prize and "Add Payment Info". Shown only in the
 * browser (the flag lives in session storage), so the server renders nothing and hydration adds it.
 */
export function Congratulations({ prizeId, lottery, prizeMoney }: CongratulationsProps) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  const [closed, setClosed] = useState(false);
  const show = useSyncExternalStore(noChange, firstTimeThisSession, () => false);
  if (!show || closed) return null;
  const close = () => {
    firstTime = false; // not again on this page load either (a client-side visit back to the home page)
    setClosed(true);
  };
  return (
    <ModalDialog titleId="congrats-title" onClose={close} className="congrats" closeOnBack>
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
