import { data, Link, redirect, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { toDigits } from '../../shared/dates.ts';
import { Amount } from '../components/nowrap.tsx';
import { paths, withQuery } from '../../shared/paths.ts';
import { formatTicket, normaliseTicket, parseTicket, randomTicket } from '../../shared/ticket.ts';
import { apiOf } from '../context.ts';
import { pageStatus } from '../components/action.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { useTranslation } from '../i18n.tsx';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { useRootData } from '../root.tsx';
import { Head } from '../components/head.tsx';
import { availability } from '../../shared/availability.ts';
import { TicketBalls } from './balls.tsx';
import { Countdown } from './countdown.tsx';
import { GameRules, LotteryFacts, PrizeHeadline, toCardLottery, type CardLottery } from './lottery-card.tsx';
import { NumberPicker, type Selection } from './number-picker.tsx';
import { checkSelection, readSelection, type SelectionMessage } from './selection.ts';
import { BuyForm, newIdempotencyKey } from './buy-form.tsx';
import { useIsStaff } from './is-staff.ts';
import { StaffNoPlay } from './staff-no-play.tsx';

/** Why the page could not show what was asked: keys of lottery.json `errors`, or a message from the API. */
type Problem = { key: 'selectLotteryFirst' | 'lotteryNotFound' | 'ticketNotFound' } | { message: string | null };

type PickerPage = {
  kind: 'picker';
  now: number;
  lottery: CardLottery | null;
  selection: Selection;
  messages: SelectionMessage[];
  problem: Problem | null;
};
/** `key`: the purchase's idempotency key, made when the page is rendered (a resent form reuses it). */
type TicketPage = { kind: 'ticket'; now: number; lottery: CardLottery | null; ticket: string | null; problem: Problem | null; key: string };

async function fetchLottery(
  context: LoaderFunctionArgs['context'],
  id: number,
): Promise<{ lottery: CardLottery | null; problem: Problem | null; status: number }> {
  const r = await apiOf(context).call(contract.getLottery, { params: { id: String(id) } });
  if (r.ok) return { lottery: toCardLottery(r.data), problem: null, status: 200 };
  if (r.error.code === 'not_found') return { lottery: null, problem: { key: 'lotteryNotFound' }, status: 404 };
  return { lottery: null, problem: { message: errorText(r.error, '') || null }, status: pageStatus(r.status) };
}

/** The parameters of the picker form: without any of them, /quick-play is a plain visit, not a form sent. */
const FORM_PARAMS = ['lottery', 'main', 'last', 'action'];

/**
 * A plain visit to /quick-play (a bookmark, a typed address, a link): the picker for the featured lottery, as the
 * home page's Quick Play panel shows it; with no featured lottery, the list of all lotteries to choose from.
 */
async function featuredPicker(context: LoaderFunctionArgs['context'], now: number) {
  const r = await apiOf(context).call(contract.featuredLotteries);
  const first = r.ok ? r.data[0] : undefined;
  if (r.ok && !first) throw redirect(paths.allLotteries, 302);
  const problem: Problem | null = first ? null : { message: r.ok ? null : errorText(r.error, '') || null };
  return data<PickerPage>(
    { kind: 'picker', now, lottery: first ? toCardLottery(first) : null, selection: { main: [], last: null }, messages: [], problem },
    { status: first ? 200 : 502 },
  );
}

/**
 * /quick-play: where the picker form goes without JavaScript. A complete, valid choice redirects to the ticket
 * page; otherwise the picker comes back with the picker's messages and the numbers kept. `action=clear|easy`
 * are the form's Clear and Easy Pick buttons; `action=edit` reopens the picker on given numbers. Without any
 * form parameter (a plain visit) it is the featured lottery's picker.
 * /quick-play/{id}/{ticket}: the chosen ticket, canonical form enforced by a redirect.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const now = Date.now();
  if (params.lotteryId === undefined) {
    const q = new URL(request.url).searchParams;
    if (!FORM_PARAMS.some((p) => q.has(p))) return featuredPicker(context, now);
    const sent = readSelection(q);
    const action = q.get('action');
    if (sent.lotteryId === null) {
      return data<PickerPage>(
        { kind: 'picker', now, lottery: null, selection: { main: [], last: null }, messages: [], problem: { key: 'selectLotteryFirst' } },
        { status: 400 },
      );
    }
    const check = checkSelection(sent);
    if (check.ok && !action) throw redirect(paths.quickPlay(sent.lotteryId, formatTicket(check.ticket)), 302);
    const { lottery, problem, status } = await fetchLottery(context, sent.lotteryId);
    let selection: Selection = { main: sent.main, last: sent.last };
    let messages: SelectionMessage[] = [];
    if (action === 'clear') selection = { main: [], last: null };
    else if (action === 'easy') selection = randomTicket();
    else if (!check.ok && action !== 'edit') messages = check.messages;
    const code = status !== 200 ? status : messages.length ? 400 : 200;
    return data<PickerPage>({ kind: 'picker', now, lottery, selection, messages, problem }, { status: code });
  }

  const id = /^\d{1,9}$/.test(params.lotteryId) ? Number(params.lotteryId) : null;
  const raw = params.ticket ?? '';
  const canonical = normaliseTicket(raw);
  if (id !== null && canonical && canonical !== raw) throw redirect(paths.quickPlay(id, canonical), 301);
  if (id === null || id === 0) {
    return data<TicketPage>(
      { kind: 'ticket', now, lottery: null, ticket: canonical, problem: { key: 'lotteryNotFound' }, key: '' },
      { status: 404 },
    );
  }
  const { lottery, problem, status } = await fetchLottery(context, id);
  if (problem) return data<TicketPage>({ kind: 'ticket', now, lottery, ticket: canonical, problem, key: '' }, { status });
  if (!canonical)
    return data<TicketPage>({ kind: 'ticket', now, lottery, ticket: null, problem: { key: 'ticketNotFound' }, key: '' }, { status: 404 });
  return { kind: 'ticket', now, lottery, ticket: canonical, problem: null, key: newIdempotencyKey() } satisfies TicketPage;
}

function ProblemPanel({ problem }: { problem: Problem }) {
  const { t } = useTranslation('lottery');
  const text =
    'key' in problem ? t(`errors.${problem.key}`) : t('common:errors.error', { message: problem.message ?? t('errors.notAvailable') });
  return (
    <div className="alert alert--error" role="alert">
      <p className="problem__title">{text}</p>
      {'key' in problem && problem.key === 'ticketNotFound' ? <p className="problem__text">{t('errors.ticketInvalid')}</p> : null}
    </div>
  );
}

/** Name, prize and the facts of a lottery, at the top of both pages. */
function LotteryHeader({ lottery, now, as: H = 'h2' }: { lottery: CardLottery; now: number; as?: 'h1' | 'h2' }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  return (
    <div className="play-lottery">
      <H className="play-lottery__name">{lotteryName(lottery, lng) || t('defaultName')}</H>
      <p className="play-lottery__prize">
        <PrizeHeadline lottery={lottery} />
      </p>
      <GameRules lottery={lottery} now={now} />
      <LotteryFacts lottery={lottery} />
      <p className="play-lottery__timer-label">{t('countdown.label')}</p>
      <Countdown end={lottery.end_date} now={now} />
    </div>
  );
}

export function Component() {
  const d = useLoaderData<typeof loader>();
  return d.kind === 'picker' ? <PickerView d={d} /> : <TicketView d={d} />;
}

function PickerView({ d }: { d: PickerPage }) {
  const { t } = useTranslation('lottery');
  const navigate = useNavigate();
  const staff = useIsStaff();
  const state = d.lottery ? availability(d.lottery, d.now) : null;
  return (
    <section className="section">
      <div className="container play">
        <Head title={t('common:title', { page: t('play.pickTitle') })} description={t('home:hero.slides.0.text')} />
        <h1>{t('play.pickTitle')}</h1>
        {d.problem ? <ProblemPanel problem={d.problem} /> : null}
        {d.lottery ? (
          <div className="play-card play-card--picker">
            <LotteryHeader lottery={d.lottery} now={d.now} />
            {state === 'open' && staff ? (
              <StaffNoPlay />
            ) : state === 'open' ? (
              <NumberPicker
                lotteryId={d.lottery.id}
                variant="panel"
                initial={d.selection}
                messages={d.messages.map((m) => t(`errors.${m}`))}
                onPlay={(href) => navigate(href)}
              />
            ) : (
              <p className="alert alert--info">{t(`reason.${state}`)}</p>
            )}
          </div>
        ) : null}
        <p className="play__back">
          <Link to={paths.allLotteries}>← {t('play.allLotteries')}</Link>
        </p>
      </div>
    </section>
  );
}

function TicketView({ d }: { d: TicketPage }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const { user } = useRootData();
  const lottery = d.lottery;
  const state = lottery ? availability(lottery, d.now) : null;
  const here = lottery && d.ticket ? paths.quickPlay(lottery.id, d.ticket) : null;
  const parsed = d.ticket ? parseTicket(d.ticket) : null;
  const editHref = lottery
    ? withQuery(paths.picker, {
        lottery: String(lottery.id),
        main: parsed?.main.map(String),
        last: parsed ? String(parsed.last) : null,
        action: 'edit',
      })
    : paths.allLotteries;

  return (
    <section className="section">
      <div className="container play">
        <Head title={t('common:title', { page: t('play.title') })} description={t('home:hero.slides.0.text')} />
        {d.problem || !lottery || !d.ticket || !here ? (
          <>
            <h1>{t('play.title')}</h1>
            {d.problem ? <ProblemPanel problem={d.problem} /> : null}
            {lottery ? (
              <div className="play-card">
                <LotteryHeader lottery={lottery} now={d.now} />
                <Link className="btn btn-primary" to={editHref}>
                  {t('cta.pickNumbers')}
                </Link>
              </div>
            ) : null}
            <p className="play__back">
              <Link to={paths.allLotteries}>← {t('play.allLotteries')}</Link>
            </p>
          </>
        ) : (
          <div className="play-grid">
            <article className="play-card play-ticket">
              <p className="play-ticket__label">{t('play.title')}</p>
              <LotteryHeader lottery={lottery} now={d.now} as="h1" />
              <div className="play-ticket__numbers">
                <p className="play-ticket__caption">{t('play.ticket')}</p>
                <TicketBalls ticket={d.ticket} lng={lng} label={t('play.ticket')} size="lg" />
              </div>
              <Link className="btn btn-ghost" to={editHref}>
                {t('play.pickDifferent')}
              </Link>
            </article>

            <aside className="play-card play-buy" aria-labelledby="play-buy-title">
              {state !== 'open' ? (
                <>
                  <h2 id="play-buy-title">{t('play.closedTitle')}</h2>
                  <p className="alert alert--info">{t(`reason.${state}`)}</p>
                  <Link className="btn btn-primary btn-block" to={paths.allLotteries}>
                    {t('play.allLotteries')}
                  </Link>
                </>
              ) : !user ? (
                <>
                  <h2 id="play-buy-title">{t('play.loginTitle')}</h2>
                  <p>{t('play.loginText')}</p>
                  <Link className="btn btn-accent btn-block play-buy__cta" to={withQuery(paths.login, { from: here })}>
                    {t('play.login')}
                  </Link>
                  <p className="play-buy__register">
                    {t('play.noAccount')} <Link to={withQuery(paths.register, { from: here })}>{t('play.register')}</Link>
                  </p>
                </>
              ) : user.is_staff ? (
                <>
                  <h2 id="play-buy-title">{t('play.closedTitle')}</h2>
                  <StaffNoPlay />
                </>
              ) : (
                <>
                  <h2 id="play-buy-title">{t('play.summaryTitle')}</h2>
                  <dl className="summary">
                    <div>
                      <dt>{t('play.name')}</dt>
                      <dd>{user.name}</dd>
                    </div>
                    <div>
                      <dt>{t('play.phone')}</dt>
                      <dd>{user.phone ? toDigits(user.phone, lng) : t('play.noPhone')}</dd>
                    </div>
                    <div>
                      <dt>{t('play.ticket')}</dt>
                      <dd>{toDigits(d.ticket, lng)}</dd>
                    </div>
                    <div>
                      <dt>{t('play.amount')}</dt>
                      <dd className="summary__amount">
                        <Amount value={lottery.ticket_price} lng={lng} />
                      </dd>
                    </div>
                  </dl>
                  <BuyForm lottery={lottery} ticket={d.ticket} idempotencyKey={d.key} editHref={editHref} />
                </>
              )}
            </aside>
          </div>
        )}
      </div>
    </section>
  );
}
