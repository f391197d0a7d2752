/** The draw page's results, once drawn (docs/rules/lotteries-and-sales.md#9-the-draw). */
import { formatNumber } from '../../../shared/dates.ts';
import type { Language } from '../../../shared/i18n.ts';
import { Amount, DateTime } from '../../components/nowrap.tsx';
import { useTranslation } from '../../i18n.tsx';
import { TicketBalls } from '../../lotteries/balls.tsx';
import type { Lottery, PrizeRow, Proposal } from './page.ts';
import { ProposalFacts } from './proposals.tsx';

/** Once drawn: when, the total prize and how it was split (the prizes table follows); by hand, who chose and approved. */
export function Results({
  l,
  prizes,
  lng,
  approved,
  drawnNumbers,
}: {
  l: Lottery;
  prizes: PrizeRow[];
  lng: Language;
  approved: Proposal | undefined;
  drawnNumbers: number[] | null;
}) {
  const { t } = useTranslation('admin');
  // Won: the prizes the draw gave (a withheld one is not the winner's); paid out: those whose transfer was completed.
  const won = prizes.reduce((s, p) => s + (p.withheld_reason ? 0 : p.prize_money), 0);
  const paid = prizes.reduce((s, p) => s + (p.paid_out ? p.prize_money : 0), 0);
  return (
    <div className="draw-section card draw-results">
      <h2 id="draw-results">{t('draw.results')}</h2>
      <p>
        {l.is_result_published ? t('draw.published') : t('draw.notPublished')}
        {l.drawn_at ? (
          <>
            {' '}
            {t('draw.drawnAt')} <DateTime value={l.drawn_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
          </>
        ) : null}
      </p>
      {drawnNumbers && drawnNumbers.length === 6 ? (
        <p className="draw-numbers">
          <span>{t('draw.drawnNumbers')}</span>{' '}
          <TicketBalls ticket={drawnNumbers.map((n) => String(n).padStart(2, '0')).join('-')} lng={lng} label={t('draw.drawnNumbers')} />
        </p>
      ) : null}
      <dl className="admin-card__facts">
        <div>
          <dt>{t('draw.winnersCount')}</dt>
          <dd>{formatNumber(prizes.length, lng)}</dd>
        </div>
        <div>
          <dt>{t(l.kind === 'numbers' ? 'draw.jackpot' : 'draw.totalPrize')}</dt>
          <dd>
            <Amount value={l.kind === 'numbers' ? (l.jackpot ?? 0) : l.total_prize} lng={lng} />
          </dd>
        </div>
        <div>
          <dt>{t('draw.won')}</dt>
          <dd>
            <Amount value={won} lng={lng} />
          </dd>
        </div>
        <div>
          <dt>{t('draw.paid')}</dt>
          <dd>
            <Amount value={paid} lng={lng} />
          </dd>
        </div>
      </dl>
      {approved ? (
        <>
          <p className="draw-unverifiable-note">{t('draw.proposal.drawnByHand')}</p>
          <ProposalFacts p={approved} lng={lng} />
        </>
      ) : null}
    </div>
  );
}
