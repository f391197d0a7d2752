import type { MouseEvent } from 'react';
import type { Lottery } from '../../shared/api-types.ts';
import { formatNumber } from '../../shared/dates.ts';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { availability, ticketsLeft } from '../../shared/availability.ts';
import { paths } from '../../shared/paths.ts';
import { TIERS, type Tier } from '../../shared/draws/tiers.ts';
import { anyPrizeOdds, prizeHeadline, ticketChance, tierOdds } from '../../shared/lotteries/odds.ts';

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
  | 'winners'
  | 'published'
  | 'is_result_published'
  | 'drawn'
  | 'purchasable'
  | 'commitment'
  | 'beacon_unverified'
  | 'frozen'
  | 'kind'
  | 'jackpot'
  | 'jackpot_share'
  | 'rollover_in'
  | 'tier2_prize'
  | 'tier3_prize'
  | 'tier4_prize'
  | 'tier5_prize'
  | 'game_id'
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
  winners: l.winners,
  published: l.published,
  is_result_published: l.is_result_published,
  drawn: l.drawn,
  purchasable: l.purchasable,
  commitment: l.commitment,
  beacon_unverified: l.beacon_unverified,
  frozen: l.frozen,
  kind: l.kind,
  jackpot: l.jackpot,
  jackpot_share: l.jackpot_share,
  rollover_in: l.rollover_in,
  game_id: l.game_id,
  tier2_prize: l.tier2_prize,
  tier3_prize: l.tier3_prize,
  tier4_prize: l.tier4_prize,
  tier5_prize: l.tier5_prize,
});

/**
 * The prize a lottery is advertised with, never TK. 0 (docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize,
 * `prizeHeadline`): its label, the amount and a line under it saying where the amount comes from. The parts of the
 * caller's prize paragraph, whose label is its `span` child.
 */
export function PrizeHeadline({ lottery }: { lottery: CardLottery }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const h = prizeHeadline(lottery);
  if (h.kind === 'none') return <span>{t('headline.none')}</span>;
  const label = h.kind === 'tier' ? t(`tiers.name.${h.tier}`) : h.kind === 'prize' ? t('prize') : t(`headline.${h.kind}`);
  const note =
    h.kind === 'guaranteed'
      ? h.now === null
        ? t('headline.guaranteedNote')
        : withElements((v) => t('headline.guaranteedNow', v), { amount: <Amount value={h.now ?? 0} lng={lng} /> })
      : h.kind === 'estimated'
        ? t('headline.estimatedNote', { share: formatNumber(lottery.jackpot_share ?? 0, lng) })
        : h.kind === 'tier'
          ? h.grows
            ? t('headline.grows')
            : t('headline.noJackpot')
          : h.kind === 'jackpot' && lottery.rollover_in > 0
            ? withElements((v) => t('tiers.rolledIn', v), { amount: <Amount value={lottery.rollover_in} lng={lng} /> })
            : null;
  return (
    <>
      <span>{label}</span>{' '}
      <strong>
        <Amount value={h.amount} lng={lng} />
      </strong>
      {note ? <small className="prize-note">{note}</small> : null}
    </>
  );
}

/** A numbers lottery's fixed prize of tier 2–5 (null: not a numbers lottery). */
export const tierPrize = (l: Pick<CardLottery, 'tier2_prize' | 'tier3_prize' | 'tier4_prize' | 'tier5_prize'>, tier: Exclude<Tier, 1>) =>
  ({ 2: l.tier2_prize, 3: l.tier3_prize, 4: l.tier4_prize, 5: l.tier5_prize })[tier];

/**
 * "How to win" of a numbers lottery (docs/rules/lotteries-and-sales.md#9-the-draw, "A numbers draw"): each tier, what a
 * ticket must match and what it pays in this lottery, in a `<details>` that opens without JavaScript. Nothing for the
 * winning-tickets kind.
 */
export function HowToWin({ lottery, className = '' }: { lottery: CardLottery; className?: string }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  if (lottery.kind !== 'numbers') return null;
  const odds = tierOdds();
  return (
    <details className={`how-to-win ${className}`}>
      <summary>{t('tiers.howToWin')}</summary>
      <table className="tiers-table">
        <thead>
          <tr>
            <th scope="col">{t('tiers.tier')}</th>
            <th scope="col">{t('tiers.matchOdds')}</th>
            <th scope="col">{t('tiers.prize')}</th>
          </tr>
        </thead>
        <tbody>
          {TIERS.map((tier) => {
            const money = tier === 1 ? null : tierPrize(lottery, tier);
            return (
              <tr key={tier}>
                <th scope="row">{t(`tiers.name.${tier}`)}</th>
                <td>
                  {t(`tiers.matches.${tier}`)}
                  <small className="tiers-table__odds">{t('game.oneIn', { x: formatNumber(odds[tier], lng) })}</small>
                </td>
                <td>{tier === 1 ? t('tiers.shared') : money === null ? '' : <Amount value={money} lng={lng} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="how-to-win__any">{t('game.anyPrize', { x: formatNumber(anyPrizeOdds(), lng) })}</p>
    </details>
  );
}

/**
 * Which game a lottery is, said plainly (docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize): winning
 * tickets drawn among those sold, with the chance of a ticket bought now while sales are open (`ticketChance`); or
 * numbers matched, with the tiers and their exact odds (`HowToWin`).
 */
export function GameRules({ lottery, now, className = '' }: { lottery: CardLottery; now: number; className?: string }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  if (lottery.kind === 'numbers')
    return (
      <div className={`game game--numbers ${className}`}>
        <p className="game__kind">
          <strong>{t('game.numbers.title')}</strong> {t('game.numbers.text')}
        </p>
        <HowToWin lottery={lottery} />
      </div>
    );
  const n = formatNumber(lottery.winners, lng);
  const chance = availability(lottery, now) === 'open' ? ticketChance(lottery.winners, lottery.tickets_sold) : null;
  return (
    <div className={`game game--tickets ${className}`}>
      <p className="game__kind">
        <strong>{t('game.tickets.title')}</strong> {t('game.tickets.text', { count: lottery.winners, n })}
      </p>
      {chance ? (
        <p className="game__chance">
          {chance.kind === 'oneIn'
            ? t(chance.exact ? 'game.tickets.chance' : 'game.tickets.chanceAbout', {
                x: formatNumber(chance.x, lng),
                count: lottery.tickets_sold,
                sold: formatNumber(lottery.tickets_sold, lng),
              })
            : t(`game.tickets.${chance.kind}`, { count: lottery.winners, n })}
        </p>
      ) : null}
    </div>
  );
}

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
        <PrizeHeadline lottery={lottery} />
      </p>
      <GameRules lottery={lottery} now={now} className="lottery-card__how" />
      <LotteryFacts lottery={lottery} withTicketsLeft />
      {open ? (
        <a className="btn btn-accent btn-block lottery-card__cta" href={pickHref} onClick={onPick} aria-label={t('cta.pickFor', { name })}>
          {t('cta.pickNumbers')}
        </a>
      ) : (
        <p className="lottery-card__reason">{t(`reason.${state}`)}</p>
      )}
      <ProofLine lottery={lottery} />
      {lottery.published ? <DrawStanding draw={lottery} className="lottery-card__proof" /> : null}
    </article>
  );
}

/** How many hex characters of the commitment a card shows: enough to recognise it, short enough for a phone. */
const COMMITMENT_SHOWN = 8;

/**
 * The card's line to the draw's public proof (docs/rules/draws.md#9-the-proof): before the draw "Checkable draw" with the
 * start of the commitment, after it "How this draw was made" (the proof page says whether it can be checked).
 */
function ProofLine({ lottery }: { lottery: CardLottery }) {
  const { t } = useTranslation('lottery');
  if (!lottery.published || (!lottery.commitment && !lottery.drawn)) return null;
  const href = paths.results(lottery.id);
  return (
    <p className="lottery-card__proof">
      <a href={href}>
        {lottery.drawn || !lottery.commitment
          ? t('proof.drawn')
          : withElements((v) => t('proof.checkable', v), {
              commitment: <code>{`${lottery.commitment.slice(0, COMMITMENT_SHOWN)}…`}</code>,
            })}
      </a>
    </p>
  );
}

/**
 * Where a card's draw stands, as its proof page says it (docs/rules/draws.md#12-where-it-stands): "Unverified beacon"
 * when the beacon value has no drand signature (decision 046), and once the tickets froze at the close (decision 045)
 * their count `n` and the start of their digest `T`, which anyone can hold the draw to. On lottery cards and result
 * cards alike; nothing when there is nothing to say.
 */
export function DrawStanding({ draw, className }: { draw: Pick<CardLottery, 'beacon_unverified' | 'frozen'>; className: string }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const frozen = draw.frozen;
  return (
    <>
      {draw.beacon_unverified ? (
        <p className={className}>
          <span className="badge badge--red">{t('proof.unverified')}</span>
        </p>
      ) : null}
      {frozen ? (
        <p className={`${className} draw-frozen`}>
          {withElements((v) => t('proof.frozen', { ...v, count: frozen.tickets, n: formatNumber(frozen.tickets, lng) }), {
            digest: <code>{`${frozen.tickets_digest.slice(0, COMMITMENT_SHOWN)}…`}</code>,
          })}
        </p>
      ) : null}
    </>
  );
}
