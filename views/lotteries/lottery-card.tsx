import type { MouseEvent } from 'react';
import type { Lottery } from '../../shared/api-types.ts';
import { formatNumber } from '../../shared/dates.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { availability, ticketsLeft } from '../../shared/availability.ts';

/**
 * The fields a lottery card and the picker dialogs show (kept small: they travel as island props). Names and
 * descriptions in both languages: each view shows the page's with lotteryName/lotteryDescription (shared/lotteries/names.ts).
 */
export type CardLottery = Pick<
  Lottery,
  | 'id'
  | 'name'
  | 'name_bn'
  | 'description'
  | 'description_bn'
  | 'start_date'
  | 'end_date'
  | 'ticket_price'
  | 'total_prize'
  | 'total_tickets'
  | 'tickets_sold'
  | 'published'
  | 'is_result_published'
  | 'drawn'
  | 'purchasable'
>;

export const toCardLottery = (l: CardLottery): CardLottery => ({
  id: l.id,
  name: l.name,
  name_bn: l.name_bn,
  description: l.description,
  description_bn: l.description_bn,
  start_date: l.start_date,
  end_date: l.end_date,
  ticket_price: l.ticket_price,
  total_prize: l.total_prize,
  total_tickets: l.total_tickets,
  tickets_sold: l.tickets_sold,
  published: l.published,
  is_result_published: l.is_result_published,
  drawn: l.drawn,
  purchasable: l.purchasable,
});

/** Ticket price, draw date and (optionally) tickets left, as a definition list. */
export function LotteryFacts({ lottery, withTicketsLeft = false }: { lottery: CardLottery; withTicketsLeft?: boolean }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  return (
    <dl className="facts">
      <div>
        <dt>{t('ticketPrice')}</dt>
        <dd>
          <Amount value={lottery.ticket_price} lng={lng} />
        </dd>
      </div>
      <div>
        <dt>{t('drawDate')}</dt>
        <dd>
          <DateTime value={lottery.end_date} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
        </dd>
      </div>
      {withTicketsLeft ? (
        <div>
          <dt>{t('ticketsLeft')}</dt>
          <dd className="nowrap">{formatNumber(ticketsLeft(lottery), lng)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * A published lottery as a card: open ones link to the picker (`?pick=ID`, which the server renders as an
 * open dialog without JavaScript; onPick opens it in place), closed ones say why they cannot be bought.
 * `heading` is the level of the card's title, one below the heading of the list it is in (h2 under the page's
 * h1 on /all-lotteries, h3 under a section's h2 on the home page): no level skipped.
 */
export function LotteryCard({
  lottery,
  now,
  pickHref,
  onPick,
  heading: H = 'h3',
}: {
  lottery: CardLottery;
  now: number;
  pickHref: string;
  onPick?: (e: MouseEvent<HTMLAnchorElement>) => void;
  heading?: 'h2' | 'h3';
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const state = availability(lottery, now);
  const open = state === 'open';
  const name = lotteryName(lottery, lng);
  return (
    <article className={`lottery-card${open ? '' : ' is-closed'}`}>
      <div className="lottery-card__top">
        <span className={`badge${open ? '' : ' badge--muted'}`}>{open ? t('open') : t('closed')}</span>
      </div>
      <H className="lottery-card__name">{name}</H>
      <p className="lottery-card__prize">
        <span>{t('prize')}</span>
        <strong>
          <Amount value={lottery.total_prize} lng={lng} />
        </strong>
      </p>
      <LotteryFacts lottery={lottery} withTicketsLeft />
      {open ? (
        <a className="btn btn-accent btn-block lottery-card__cta" href={pickHref} onClick={onPick} aria-label={t('cta.pickFor', { name })}>
          {t('cta.pickNumbers')}
        </a>
      ) : (
        <p className="lottery-card__reason">{t(`reason.${state}`)}</p>
      )}
    </article>
  );
}
