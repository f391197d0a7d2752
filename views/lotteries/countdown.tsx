import { useEffect, useState } from 'react';
import { countdown, formatNumber } from '../../shared/dates.ts';
import { useTranslation } from '../i18n.tsx';

/**
 * Days, hours and minutes until sales close, or 'Time is up'. The first render uses `now` from the server, so
 * the server HTML and the hydrated island agree; the browser's clock takes over right after.
 */
export function Countdown({ end, now }: { end: string; now: number }) {
  const { t, i18n } = useTranslation('lottery');
  const [at, setAt] = useState(now);
  useEffect(() => {
    const tick = () => setAt(Date.now());
    tick();
    const id = window.setInterval(tick, 10_000);
    return () => window.clearInterval(id);
  }, []);
  const c = countdown(end, at);
  if (!c) return null;
  if (c.done) return <p className="countdown countdown--done">{t('countdown.timeUp')}</p>;
  const cells = [
    ['days', c.days],
    ['hours', c.hours],
    ['minutes', c.minutes],
  ] as const;
  return (
    <div className="countdown" role="timer" aria-label={t('countdown.label')}>
      {cells.map(([unit, v]) => (
        <span key={unit} className="countdown__cell">
          <span className="countdown__value">{formatNumber(v, i18n.language).padStart(2, formatNumber(0, i18n.language))}</span>
          <span className="countdown__unit">{t(`countdown.${unit}`)}</span>
        </span>
      ))}
    </div>
  );
}
