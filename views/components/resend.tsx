import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n.tsx';
import { toDigits } from '../../shared/dates.ts';
import { SubmitButton } from './form.tsx';
import { useHydrated } from './use-hydrated.ts';

/**
 * The resend control of a code form: counts down from the wait the server enforces, then offers Resend.
 * Without JavaScript the button is always there and the server answers an early resend with the wait left.
 */
export function Resend({ sentAt, waitSec }: { sentAt: number | null; waitSec: number }) {
  const { t, i18n } = useTranslation('auth');
  // The server and the hydrating browser render the Resend button; the countdown starts once hydrated.
  const hydrated = useHydrated();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  const remaining = sentAt ? Math.max(0, Math.ceil((sentAt + waitSec * 1000 - now) / 1000)) : 0;

  if (hydrated && remaining > 0) {
    const mm = String(Math.floor(remaining / 60));
    const ss = String(remaining % 60).padStart(2, '0');
    return (
      <p className="resend" aria-live="polite">
        {t('code.resendIn', { time: toDigits(`${mm}:${ss}`, i18n.language) })}
      </p>
    );
  }
  return (
    <div className="resend">
      <span>{t('code.noCode')}</span>
      <SubmitButton name="intent" value="resend" className="btn btn-ghost btn-sm">
        {t('code.resend')}
      </SubmitButton>
    </div>
  );
}
