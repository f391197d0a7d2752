import { useTranslation } from '../i18n.tsx';
import { lotteryDescription, lotteryName } from '../../shared/lotteries/names.ts';
import { Countdown } from '../lotteries/countdown.tsx';
import { GameRules, LotteryFacts, PrizeHeadline, type CardLottery } from '../lotteries/lottery-card.tsx';
import { NumberPicker } from '../lotteries/number-picker.tsx';
import { StaffNoPlay } from '../lotteries/staff-no-play.tsx';

/** `staff`: a staff account is logged in, who sees the refusal instead of the picker (views/lotteries/staff-no-play.tsx). */
export type QuickPlayPanelProps = { lottery: CardLottery; now: number; staff?: boolean };

/** Home page island: the featured lottery with its countdown, and the number picker next to it. */
export function QuickPlayPanel({ lottery, now, staff = false }: QuickPlayPanelProps) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  return (
    <div className="qp">
      <div className="qp__info">
        <span className="badge badge--gold">{t('quickPlay.featured')}</span>
        <h3 className="qp__name">{lotteryName(lottery, lng)}</h3>
        <p className="qp__prize">
          <PrizeHeadline lottery={lottery} />
        </p>
        <GameRules lottery={lottery} now={now} />
        {lotteryDescription(lottery, lng) ? <p className="qp__desc">{lotteryDescription(lottery, lng)}</p> : null}
        <LotteryFacts lottery={lottery} />
        <p className="qp__timer-label">{t('lottery:countdown.label')}</p>
        <Countdown end={lottery.end_date} now={now} />
      </div>
      <div className="qp__picker">{staff ? <StaffNoPlay /> : <NumberPicker lotteryId={lottery.id} variant="panel" />}</div>
    </div>
  );
}
