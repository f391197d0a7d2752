import type { z } from 'zod';
import type { Language } from '../../shared/i18n.ts';
import { PERIODS } from '../../shared/play-safe/limits.ts';
import type { StaffPlayLimits } from '../../shared/play-safe/schemas.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { Fact } from './list.tsx';

export type PlayView = z.output<typeof StaffPlayLimits>;

/**
 * A player's spend limits, breaks (time-out and self-exclusion) and reality check on the staff's user page, read only
 * (docs/rules/play-safe.md#5-what-staff-see): staff see them, never change them; the history says what he asked for and when.
 */
export function UserPlayLimits({ play, lng }: { play: PlayView | null; lng: Language }) {
  const { t } = useTranslation('admin');
  const invalid = t('common:errors.invalidDate');
  const when = (iso: string) => <DateTime value={iso} lng={lng} withTime invalid={invalid} />;
  const taka = (n: number | null) => (n === null ? t('users.play.none') : <Amount value={n} lng={lng} />);
  return (
    <section className="card admin-form" aria-labelledby="user-play">
      <h2 id="user-play">{t('users.play.title')}</h2>
      {!play ? (
        <p className="muted">{t('users.play.loadFailed')}</p>
      ) : (
        <>
          <p>{play.self_exclusion ? <strong>{t('users.play.excluded')} </strong> : t('users.play.notExcluded')}</p>
          {play.self_exclusion ? <p>{when(play.self_exclusion.until)}</p> : null}
          <p>
            {play.time_out ? (
              <>
                <strong>{t('users.play.timeOut')}</strong> {when(play.time_out.until)}
              </>
            ) : (
              t('users.play.noTimeOut')
            )}
          </p>
          <dl className="admin-card__facts">
            {PERIODS.map((p, i) => (
              <div key={p}>
                <dt>{t(`users.play.period.${p}`)}</dt>
                <dd>
                  {taka(play.limits[p])} · {t('users.play.spent')} <Amount value={play.periods[i]?.spent ?? 0} lng={lng} />
                  {play.pending ? (
                    <>
                      {' '}
                      · {t('users.play.pending')} {taka(play.pending.limits[p])}
                    </>
                  ) : null}
                </dd>
              </div>
            ))}
            <Fact label={t('users.play.reality')}>
              {t(`profile:reality.intervals.${play.reality_check.interval_minutes}`)}
              {play.reality_check.chosen ? null : <> {t('users.play.realityDefault')}</>}
            </Fact>
          </dl>
          {play.pending ? (
            <p className="muted">
              {t('users.play.pendingFrom')} {when(play.pending.effective_at)}
            </p>
          ) : null}
          {play.history.length ? (
            <>
              <h3>{t('users.play.history')}</h3>
              <ul>
                {play.history.map((e, i) => (
                  <li key={i}>
                    {when(e.at)}:{' '}
                    {e.kind !== 'limits' && e.until ? (
                      <>
                        {t(e.kind === 'time_out' ? 'users.play.historyTimeOut' : 'users.play.historyExcluded')} {when(e.until)}
                      </>
                    ) : (
                      PERIODS.map((p) => (
                        <span key={p}>
                          {t(`users.play.period.${p}`)} {taka(e.limits?.[p] ?? null)}{' '}
                        </span>
                      ))
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
