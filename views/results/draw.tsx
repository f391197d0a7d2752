import type { ReactNode } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import {
  ALGORITHM,
  isUnverifiedBeacon,
  quicknetRoundTime,
  type NumbersProof,
  type PendingProof,
  type UnverifiableProof,
  type WinnersProof,
} from '../../shared/draws/proof.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths } from '../../shared/paths.ts';
import { idOf, pageStatus } from '../components/action.ts';
import { Head } from '../components/head.tsx';
import { DateTime, withElements } from '../components/nowrap.tsx';
import { apiOf, localeOf } from '../context.ts';
import { useTranslation, WithTexts, type TFunction } from '../i18n.tsx';
import { TicketBalls } from '../lotteries/balls.tsx';
import { tierPrize } from '../lotteries/lottery-card.tsx';
import { numbersPrizes, TIERS, type Tier } from '../../shared/draws/tiers.ts';
import type { Lottery } from '../../shared/api-types.ts';
import type { ApiClient } from '../../shared/api-client.ts';
import { Amount } from '../components/nowrap.tsx';

/** drand quicknet's chain, whose rounds any public relay serves (docs/rules/draws.md#4-the-beacon). */
const QUICKNET_CHAIN = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';
export const drandRoundUrl = (round: number): string => `https://api.drand.sh/${QUICKNET_CHAIN}/public/${round}`;

/** Every shape the proof endpoint answers (shared/draws/proof.ts), a numbers draw's among them. */
type AnyProof = PendingProof | WinnersProof | NumbersProof | UnverifiableProof;

/** The tickets frozen when sales closed (docs/rules/draws.md#3-the-tickets): when, how many, and their digest `T`. */
type Frozen = { at: string; tickets: number; digest: string };

/** The beacon as the page shows it: `signature`, drand's signature of the round, when the server fetched it or staff entered it. */
type Beacon = { round: number; value: string | null; signature: string | null; sample: boolean };

/**
 * What the page shows of a proof: never the list of tickets itself (it can be long; the JSON proof has it), only
 * their number and digest. The seed is there only once the draw revealed it (docs/rules/draws.md#2-the-seed-and-its-commitment).
 */
export type ProofView =
  | { kind: 'pending'; commitment: string; beacon: Beacon; frozen: Frozen | null }
  | {
      kind: 'drawn';
      commitment: string;
      seed: string;
      beacon: Beacon & { value: string };
      ticketsDigest: string;
      tickets: number;
      /** A winning-tickets draw: the winners in the order drawn, and the most it could draw. */
      winners: string[] | null;
      maxWinners: number | null;
      /** A numbers draw: `[m1, …, m5, last]`. */
      numbers: number[] | null;
      /** The prizes withheld since the draw, by ticket, with why (docs/rules/lotteries-and-sales.md#9-the-draw). */
      withheld: { ticket: string; reason: string }[];
      /** A game's draw: its Lucky Chance winners in the order drawn, each with its code (docs/rules/draws.md#7a-lucky-chance). */
      lucky: { ticket: string; code: string }[] | null;
    }
  | { kind: 'unverifiable'; commitment: string | null; beacon: { round: number } | null };

/** One row of a numbers draw's prize table: its tier, how many tickets reached it, and what each of them is paid. */
export type TierRow = { tier: Tier; count: number; each: number };
/** A numbers draw's tiers, and the jackpot that rolled over (into which lottery, when it can be named to this visitor). */
export type TierTable = {
  rows: TierRow[];
  rollover: { amount: number; to: { id: number; name: string; name_bn: string } | null } | null;
};

/**
 * The prize table of a numbers draw, from the proof's own tickets and numbers and the lottery's prizes
 * (docs/rules/lotteries-and-sales.md#9-the-draw, "A numbers draw"): the same rule function the draw paid with
 * (`numbersPrizes`), so that the table is what anyone re-checking the proof finds. The lottery's `jackpot` stopped moving
 * at the draw, so it is given whole (as if it had all rolled in); every ticket counts, a tier paying 0 too.
 */
export function tierTable(l: Lottery, p: NumbersProof): Omit<TierTable, 'rollover'> & { rollover: number } {
  const jackpot = l.jackpot ?? 0;
  const tierPrizes = [2, 3, 4, 5].map((tier) => tierPrize(l, tier as Exclude<Tier, 1>) ?? 0) as [number, number, number, number];
  const r = numbersPrizes({
    tickets: p.tickets.map((ticket) => ({ ticket })),
    numbers: p.numbers,
    sales: 0,
    jackpotShare: 0,
    rolloverIn: jackpot,
    tierPrizes,
  });
  const rows = TIERS.map((tier) => ({
    tier,
    count: r.counts[tier],
    each: tier === 1 ? (r.split?.each ?? jackpot) : tierPrizes[tier - 2]!,
  }));
  return { rows, rollover: r.rollover };
}

/** The tier table of a drawn numbers lottery, with the rollover's target named when this visitor may see it. */
async function tiersOf(api: ApiClient, l: Lottery, p: AnyProof): Promise<TierTable | null> {
  if (l.kind !== 'numbers' || !('numbers' in p) || !('seed' in p)) return null;
  const { rows, rollover } = tierTable(l, p);
  if (!rollover) return { rows, rollover: null };
  const target = l.rollover_to === null ? null : await api.call(contract.getLottery, { params: { id: String(l.rollover_to) } });
  const to = target?.ok ? { id: target.data.id, name: target.data.name, name_bn: target.data.name_bn } : null;
  return { rows, rollover: { amount: rollover, to } };
}

export function proofView(p: AnyProof): ProofView {
  if (p.algorithm === 'unverifiable')
    return { kind: 'unverifiable', commitment: p.commitment, beacon: p.beacon ? { round: p.beacon.round } : null };
  if ('seed' in p) {
    return {
      kind: 'drawn',
      commitment: p.commitment,
      seed: p.seed,
      beacon: { round: p.beacon.round, value: p.beacon.value, signature: p.beacon.signature ?? null, sample: p.beacon.sample === true },
      ticketsDigest: p.tickets_digest,
      tickets: p.tickets.length,
      winners: 'winners' in p ? p.winners : null,
      maxWinners: 'max_winners' in p ? p.max_winners : null,
      numbers: 'numbers' in p ? p.numbers : null,
      withheld: p.withheld ?? [],
      lucky: 'lucky_chance' in p && p.lucky_chance ? p.lucky_chance.winners : null,
    };
  }
  return {
    kind: 'pending',
    commitment: p.commitment,
    beacon: { round: p.beacon.round, value: p.beacon.value ?? null, signature: p.beacon.signature ?? null, sample: false },
    frozen: p.frozen ? { at: p.frozen.at, tickets: p.frozen.tickets, digest: p.frozen.tickets_digest } : null,
  };
}

/**
 * /results/{lotteryId}: the public proof of a published lottery's draw (docs/rules/draws.md#9-the-proof), for anyone,
 * in plain words: before the draw what fixes it, after it what it drew and how to check it. An unpublished or unknown
 * lottery is not found, as the API says. Not a shared page (routes.tsx): the command to check it names the origin
 * the visitor reached, which another visitor's Host header must never set.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = idOf(params.lotteryId);
  if (!id) throw data(null, { status: 404 });
  const api = apiOf(context);
  const [lottery, proof, texts] = await Promise.all([
    api.call(contract.getLottery, { params: { id } }),
    api.call(contract.drawProof, { params: { id } }),
    localeOf(context).namespace('results'),
  ]);
  // The proof answers only for a published lottery: staff, who can read an unpublished one, get the same 404.
  const notFound = (r: typeof lottery | typeof proof) => !r.ok && r.error.code === 'not_found';
  if (notFound(lottery) || notFound(proof)) throw data(null, { status: 404 });
  if (!lottery.ok) throw data(null, { status: pageStatus(lottery.status) });
  if (!proof.ok) throw data(null, { status: pageStatus(proof.status) });
  const l = lottery.data;
  const p: AnyProof = proof.data;
  return {
    tiers: await tiersOf(api, l, p),
    texts,
    lottery: { id: l.id, name: l.name, name_bn: l.name_bn, end_date: l.end_date, lucky_prize: l.lucky_prize },
    proof: proofView(p),
    origin: new URL(request.url).origin,
    json: urlOf(contract.drawProof, { id }),
    now: Date.now(),
  };
}

export function Component() {
  const { texts } = useLoaderData<typeof loader>();
  return (
    <WithTexts ns="results" texts={texts}>
      <DrawProofPage />
    </WithTexts>
  );
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function DrawProofPage() {
  const d = useLoaderData<typeof loader>();
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('results');
  const name = lotteryName(d.lottery, lng);
  const p = d.proof;
  const status = p.kind === 'pending' ? 'pending' : p.kind === 'drawn' ? 'drawn' : 'unverifiable';
  const unverified = p.kind !== 'unverifiable' && isUnverifiedBeacon(p.beacon);
  return (
    <>
      <Head title={t('common:title', { page: t('meta.title', { name }) })} description={t('meta.description')} />
      <header className="page-head">
        <div className="container narrow">
          <p className="page-head__meta">
            <span className={`badge${status === 'unverifiable' ? ' badge--muted' : ''}`}>{t(`status.${status}`)}</span>
            {unverified ? <span className="badge badge--red">{t('beacon.unverified')}</span> : null}
          </p>
          <h1>{name}</h1>
          <p className="page-head__lead">
            {withElements((v) => t('endOfSales', v), {
              date: <DateTime value={d.lottery.end_date} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
            })}
          </p>
        </div>
      </header>
      <div className="container narrow proof">
        {p.kind === 'pending' ? <Pending p={p} d={d} t={t} lng={lng} /> : null}
        {p.kind === 'drawn' ? <Drawn p={p} d={d} t={t} lng={lng} /> : null}
        {p.kind === 'unverifiable' ? <Unverifiable p={p} t={t} lng={lng} /> : null}
        <p className="proof__back">
          <Link to={paths.home}>{t('back')}</Link>
        </p>
      </div>
    </>
  );
}

type Parts<P> = { p: P; t: TFunction; lng: Language };
type Pending = Extract<ProofView, { kind: 'pending' }>;
type DrawnProof = Extract<ProofView, { kind: 'drawn' }>;

/** A long hex value: monospace, broken anywhere so that it never widens a phone's screen. */
const Hex = ({ value }: { value: string }) => <code className="hex">{value}</code>;

function Item({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="proof__item">
      <dt>{label}</dt>
      <dd>
        {children}
        {hint ? <p className="proof__hint">{hint}</p> : null}
      </dd>
    </div>
  );
}

function Pending({ p, d, t, lng }: Parts<Pending> & { d: Data }) {
  const roundAt = quicknetRoundTime(p.beacon.round);
  const come = roundAt.getTime() <= d.now;
  return (
    <>
      <section className="proof__section" aria-labelledby="proof-pending">
        <h2 id="proof-pending">{t('pending.title')}</h2>
        <p>{t('pending.lead')}</p>
        <dl className="proof__list">
          <Item label={t('commitment.label')} hint={t('commitment.hint')}>
            <Hex value={p.commitment} />
          </Item>
          <BeaconItems beacon={p.beacon} t={t} lng={lng} />
          {p.beacon.value === null ? (
            <Item label={t('beacon.value')}>
              <p className="proof__hint">{come ? t('beacon.waiting') : t('beacon.notYet')}</p>
            </Item>
          ) : null}
          {p.frozen ? <FrozenItem frozen={p.frozen} t={t} lng={lng} /> : null}
          <Item label={t('algorithm')}>
            <code>{ALGORITHM}</code>
          </Item>
        </dl>
        <JsonLink href={d.json} t={t} />
      </section>
      <Why t={t} />
    </>
  );
}

/** The tickets frozen at the close, shown at once (before the draw): "Frozen at 8:00 PM: 1,234 tickets, digest …". */
function FrozenItem({ frozen, t, lng }: { frozen: Frozen; t: TFunction; lng: Language }) {
  return (
    <Item label={t('frozen.label')} hint={t('frozen.hint')}>
      <p className="proof__frozen">
        {withElements((v) => t('frozen.summary', { ...v, count: frozen.tickets, n: formatNumber(frozen.tickets, lng) }), {
          time: <DateTime value={frozen.at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
        })}
      </p>
      <Hex value={frozen.digest} />
    </Item>
  );
}

/** The beacon: its source, its round with the round's time, and its value once known (with a relay's link). */
function BeaconItems({ beacon, t, lng }: { beacon: Beacon; t: TFunction; lng: Language }) {
  const at = quicknetRoundTime(beacon.round);
  return (
    <>
      <Item label={t('beacon.label')}>{t('beacon.source')}</Item>
      <Item label={t('beacon.round')}>
        <span className="nowrap">{toDigits(String(beacon.round), lng)}</span>
        {' · '}
        <time dateTime={at.toISOString()}>
          {withElements((v) => t('beacon.time', v), {
            time: <DateTime value={at.toISOString()} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
          })}
        </time>
      </Item>
      {beacon.value !== null ? (
        <Item label={t('beacon.value')}>
          <Hex value={beacon.value} />
          {isUnverifiedBeacon(beacon) ? (
            <p className="proof__unverified">
              <strong className="proof__sample">{t('beacon.unverified')}</strong>{' '}
              {beacon.sample ? t('beacon.sample') : t('beacon.unverifiedHint')}
            </p>
          ) : null}
          <p className="proof__hint">
            <a href={drandRoundUrl(beacon.round)} rel="noopener noreferrer">
              {t('beacon.link', { round: toDigits(String(beacon.round), lng) })}
            </a>
          </p>
        </Item>
      ) : null}
      {beacon.signature !== null ? (
        <Item label={t('beacon.signature')} hint={t('beacon.signatureHint')}>
          <Hex value={beacon.signature} />
        </Item>
      ) : null}
    </>
  );
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A drawn prize withheld since, by two staff members, with why (docs/rules/lotteries-and-sales.md#9-the-draw). */
function WithheldNote({ reason, t }: { reason: string | undefined; t: TFunction }) {
  return reason === undefined ? null : <span className="proof__withheld">{t('drawn.withheld', { reason })}</span>;
}

function Drawn({ p, d, t, lng }: Parts<DrawnProof> & { d: Data }) {
  return (
    <>
      <section className="proof__section" aria-labelledby="proof-drawn">
        <h2 id="proof-drawn">{t('drawn.title')}</h2>
        <p>{t('drawn.lead')}</p>
        {p.numbers ? (
          <div className="proof__result">
            <h3>{t('drawn.numbers')}</h3>
            <TicketBalls ticket={p.numbers.map(pad2).join('-')} lng={lng} label={t('drawn.numbers')} />
          </div>
        ) : null}
        {p.numbers ? (
          d.tiers ? (
            <Tiers table={d.tiers} t={t} lng={lng} />
          ) : null
        ) : (
          <div className="proof__result">
            <h3>{t('drawn.winners')}</h3>
            {p.winners?.length ? (
              <ol className="proof__winners">
                {p.winners.map((w, i) => (
                  <li key={w}>
                    <span className="proof__order" aria-hidden="true">
                      {formatNumber(i + 1, lng)}
                    </span>
                    <TicketBalls ticket={w} lng={lng} label={t('drawn.ticket')} size="sm" />
                    <WithheldNote reason={p.withheld.find((x) => x.ticket === w)?.reason} t={t} />
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">{t('drawn.noWinners')}</p>
            )}
          </div>
        )}
        {p.lucky ? <LuckyChance winners={p.lucky} prize={d.lottery.lucky_prize} withheld={p.withheld} t={t} lng={lng} /> : null}
        {p.numbers && p.withheld.length ? (
          <div className="proof__result">
            <h3>{t('drawn.withheldTitle')}</h3>
            <ul className="proof__winners">
              {p.withheld.map((w) => (
                <li key={w.ticket}>
                  <TicketBalls ticket={w.ticket} lng={lng} label={t('drawn.ticket')} size="sm" />
                  <WithheldNote reason={w.reason} t={t} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <dl className="proof__list">
          <Item label={t('drawn.seed')} hint={t('drawn.seedHint')}>
            <Hex value={p.seed} />
          </Item>
          <Item label={t('commitment.label')}>
            <Hex value={p.commitment} />
          </Item>
          <BeaconItems beacon={p.beacon} t={t} lng={lng} />
          <Item label={t('drawn.tickets')}>
            <span className="nowrap">{formatNumber(p.tickets, lng)}</span>
          </Item>
          <Item label={t('drawn.ticketsDigest')}>
            <Hex value={p.ticketsDigest} />
          </Item>
          {p.maxWinners !== null ? (
            <Item label={t('drawn.maxWinners')}>
              <span className="nowrap">{formatNumber(p.maxWinners, lng)}</span>
            </Item>
          ) : null}
          <Item label={t('algorithm')}>
            <code>{ALGORITHM}</code>
          </Item>
        </dl>
        <JsonLink href={d.json} t={t} />
      </section>
      <Check numbers={p.numbers !== null} d={d} t={t} lng={lng} />
      <Why t={t} />
    </>
  );
}

/**
 * A game's draw's Lucky Chance (docs/rules/draws.md#7a-lucky-chance): the codes drawn in the order drawn, each with its
 * entry's ticket, and what each pays.
 */
function LuckyChance({
  winners,
  prize,
  withheld,
  t,
  lng,
}: {
  winners: { ticket: string; code: string }[];
  prize: number;
  withheld: { ticket: string; reason: string }[];
  t: TFunction;
  lng: Language;
}) {
  return (
    <div className="proof__result">
      <h3>{t('drawn.lucky')}</h3>
      <p>{withElements((v) => t('drawn.luckyLead', v), { amount: <Amount value={prize} lng={lng} /> })}</p>
      {winners.length ? (
        <ol className="proof__winners proof__lucky">
          {winners.map((w, i) => (
            <li key={w.code}>
              <span className="proof__order" aria-hidden="true">
                {formatNumber(i + 1, lng)}
              </span>
              <span className="proof__code nowrap">{w.code}</span>
              <TicketBalls ticket={w.ticket} lng={lng} label={t('drawn.ticket')} size="sm" />
              <WithheldNote reason={withheld.find((x) => x.ticket === w.ticket)?.reason} t={t} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">{t('drawn.luckyNone')}</p>
      )}
    </div>
  );
}

/** A numbers draw's prize table: tier, what it needs, how many tickets won it, what each is paid; then any rollover. */
function Tiers({ table, t, lng }: { table: TierTable; t: TFunction; lng: Language }) {
  const to = table.rollover?.to ?? null;
  return (
    <div className="proof__result proof__tiers">
      <h3>{t('tiers.title')}</h3>
      <p className="proof__hint">{t('tiers.lead')}</p>
      <table className="tiers-table tiers-table--proof">
        <caption className="visually-hidden">{t('tiers.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('tiers.tier')}</th>
            <th scope="col">{t('tiers.match')}</th>
            <th scope="col" className="num">
              {t('tiers.winners')}
            </th>
            <th scope="col" className="num">
              {t('tiers.each')}
            </th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr key={r.tier}>
              <th scope="row">{t(`lottery:tiers.name.${r.tier}`)}</th>
              <td>{t(`lottery:tiers.matches.${r.tier}`)}</td>
              <td className="num">{formatNumber(r.count, lng)}</td>
              <td className="num">
                <Amount value={r.each} lng={lng} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {table.rollover ? (
        <p className="proof__rollover">
          {to
            ? withElements((v) => t('tiers.rollover', v), {
                amount: <Amount value={table.rollover.amount} lng={lng} />,
                lottery: <Link to={`${paths.allLotteries}?pick=${to.id}`}>{lotteryName(to, lng)}</Link>,
              })
            : withElements((v) => t('tiers.rolloverElsewhere', v), { amount: <Amount value={table.rollover.amount} lng={lng} /> })}
        </p>
      ) : null}
    </div>
  );
}

function JsonLink({ href, t }: { href: string; t: TFunction }) {
  return (
    <p className="proof__json">
      <a href={href} type="application/json">
        {t('json')}
      </a>{' '}
      <code className="hex">{href}</code>
    </p>
  );
}

/** How anyone re-checks the draw: the project's checker, then the steps in words (docs/rules/draws.md#10-checking-a-draw). */
function Check({ numbers, d, t, lng }: { numbers: boolean; d: Data; t: TFunction; lng: Language }) {
  const code = (s: string) => <code>{s}</code>;
  return (
    <section className="proof__section" aria-labelledby="proof-check">
      <h2 id="proof-check">{t('check.title')}</h2>
      <p>{t('check.command')}</p>
      <pre className="proof__command">
        <code>{`npm run verify-draw -- ${d.origin} ${d.lottery.id}`}</code>
      </pre>
      <p>{t('check.byHand')}</p>
      <ol className="proof__steps">
        <li>{withElements((v) => t('check.steps.seed', v), { formula: code('SHA-256(S) = C') })}</li>
        <li>{withElements((v) => t('check.steps.tickets', v), { formula: code('T = SHA-256(t₀ "\\n" t₁ "\\n" … tₙ₋₁)') })}</li>
        <li>{withElements((v) => t('check.steps.key', v), { formula: code('K = HMAC-SHA256(S, T ":" P)') })}</li>
        <li>
          {numbers
            ? withElements((v) => t('check.steps.numbers', { ...v, main: formatNumber(55, lng), last: formatNumber(15, lng) }), {
                formula: code('HMAC-SHA256(K, "main:" i), HMAC-SHA256(K, "last:" i)'),
              })
            : withElements((v) => t('check.steps.winners', v), { formula: code('h = HMAC-SHA256(K, "winner:" i)'), pick: code('h mod n') })}
        </li>
      </ol>
      <p className="proof__hint">{withElements((v) => t('check.rules', v), { doc: code('docs/rules/draws.md') })}</p>
    </section>
  );
}

/** Why nobody can steer the draw: the three steps of docs/rules/draws.md#1-the-procedure-in-short. */
function Why({ t }: { t: TFunction }) {
  return (
    <section className="proof__section" aria-labelledby="proof-why">
      <h2 id="proof-why">{t('why.title')}</h2>
      <ol className="proof__steps">
        <li>{t('why.seed')}</li>
        <li>{t('why.tickets')}</li>
        <li>{t('why.beacon')}</li>
      </ol>
      <p>{t('why.end')}</p>
    </section>
  );
}

function Unverifiable({ p, t, lng }: Parts<Extract<ProofView, { kind: 'unverifiable' }>>) {
  return (
    <section className="proof__section" aria-labelledby="proof-unverifiable">
      <div className="alert alert--info proof__notice" role="note">
        <h2 id="proof-unverifiable">{t('unverifiable.title')}</h2>
        <p>{t('unverifiable.text')}</p>
      </div>
      {p.commitment ? (
        <dl className="proof__list">
          <Item label={t('unverifiable.commitment')}>
            <Hex value={p.commitment} />
          </Item>
          {p.beacon ? (
            <Item label={t('beacon.round')}>
              <span className="nowrap">{toDigits(String(p.beacon.round), lng)}</span>
            </Item>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
