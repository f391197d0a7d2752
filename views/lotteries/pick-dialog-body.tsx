import { Amount } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { availability } from '../../shared/availability.ts';
import { PrizeHeadline, type CardLottery } from './lottery-card.tsx';
import { NumberPicker, type PickerVariant, type Selection } from './number-picker.tsx';
import { StaffNoPlay } from './staff-no-play.tsx';

export const PICK_TITLE_ID = 'pick-title';

/**
 * What the number-selection modal (home) and dialog (/all-lotteries) show inside their frame. `staff`: the visitor is
 * logged in with a staff account, who sees the refusal instead of the picker (staff-no-play.tsx).
 */
export function PickDialogBody({
  lottery,
  now,
  variant,
  initial,
  onChange,
  onPlay,
  otherHref,
  staff = false,
}: {
  lottery: CardLottery;
  now: number;
  variant: PickerVariant;
  initial?: Selection | undefined;
  onChange?: (s: Selection) => void;
  onPlay?: (href: string) => void;
  otherHref: string;
  staff?: boolean;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const state = availability(lottery, now);
  return (
    <>
      <h2 id={PICK_TITLE_ID} className="dialog__title pick-dialog__title">
        {lotteryName(lottery, lng)}
      </h2>
      <p className="pick-dialog__facts">
        <span>
          <PrizeHeadline lottery={lottery} />
        </span>
        <span>
          {t('ticketPrice')}{' '}
          <strong>
            <Amount value={lottery.ticket_price} lng={lng} />
          </strong>
        </span>
      </p>
      {state === 'open' && staff ? (
        <StaffNoPlay />
      ) : state === 'open' ? (
        <NumberPicker key={lottery.id} lotteryId={lottery.id} variant={variant} initial={initial} onChange={onChange} onPlay={onPlay} />
      ) : (
        <>
          <p className="alert alert--info">{t(`reason.${state}`)}</p>
          <a className="btn btn-primary" href={otherHref}>
            {t('cta.otherLotteries')}
          </a>
        </>
      )}
    </>
  );
}
