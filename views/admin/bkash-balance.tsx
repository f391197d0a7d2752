import type { z } from 'zod';
import type { BkashBalanceReply } from '../../shared/claims/schemas.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { formatTaka, paisaAsTaka } from '../../shared/money.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';

type Balance = z.output<typeof BkashBalanceReply>;

/**
 * bKash's disbursement balance beside what is owed to winners (docs/rules/lotteries-and-sales.md#11-prize-claims,
 * "Paid by bKash"): on the dashboard and the claims page. Says when the balance was read, and when it does not cover
 * the claims waiting.
 */
export function BkashBalanceCards({ b, lng }: { b: Balance; lng: Language }) {
  const { t } = useTranslation('admin');
  const invalid = t('common:errors.invalidDate');
  const when = b.read_at ? <DateTime value={b.read_at} lng={lng} withTime invalid={invalid} /> : null;
  const short = b.disbursement_paisa !== null && b.disbursement_paisa < b.owed_claimed * 100;
  return (
    <section className="admin-balance" aria-labelledby="bkash-balance-title">
      <h2 id="bkash-balance-title">{t('claims.balance.title')}</h2>
      <ul className="admin-stats">
        <li className={`card admin-stat${short ? ' admin-stat--short' : ''}`}>
          <span className="admin-stat__label">{t('claims.balance.disbursement')}</span>
          <span className="admin-stat__value">
            {b.disbursement_paisa === null ? t('claims.balance.never') : formatTaka(paisaAsTaka(b.disbursement_paisa), lng)}
          </span>
          {when ? (
            <span className="admin-stat__note">
              {b.fresh ? t('claims.balance.readAt') : t('claims.balance.stale')}
              {when}
            </span>
          ) : null}
        </li>
        <li className="card admin-stat">
          <span className="admin-stat__label">{t('claims.balance.owedClaimed')}</span>
          <span className="admin-stat__value">
            <Amount value={b.owed_claimed} lng={lng} />
          </span>
        </li>
        <li className="card admin-stat">
          <span className="admin-stat__label">{t('claims.balance.owedUnclaimed')}</span>
          <span className="admin-stat__value">
            <Amount value={b.owed_unclaimed} lng={lng} />
          </span>
        </li>
      </ul>
      {b.waiting > 0 ? (
        <p className="admin-flag">
          {t('claims.balance.waiting', { count: b.waiting, n: formatNumber(b.waiting, lng), amount: formatTaka(b.waiting_amount, lng) })}
        </p>
      ) : null}
      {short ? <p className="admin-flag">{t('claims.balance.short')}</p> : null}
    </section>
  );
}
