import { data, Form, Link, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { GameDraw } from '../../shared/games/schemas.ts';
import type { Language } from '../../shared/i18n.ts';
import { NO_AMOUNT } from '../../shared/money.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, refusal, refuse } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation, type TFunction } from '../i18n.tsx';
import { TicketBalls } from '../lotteries/balls.tsx';
import { GameCharts } from './game-charts.tsx';
import { calendarText, GameForm, gameName, postGame, valuesOf, type GameRow } from './game-form.tsx';
import { AdminPageHead, AdminTable, Fact } from './list.tsx';

type Draw = z.output<typeof GameDraw>;
type Game = GameRow & { draws: Draw[] };
/** What a post answers: the form saved, the game paused or resumed, or that change refused (shown above the page). */
type Result = FormResult & { saved?: boolean; toggled?: 'paused' | 'resumed'; toggleError?: string };

const STATE_BADGES: Record<Draw['state'], string> = {
  on_sale: 'badge--success',
  closed: 'badge--gold',
  drawn: 'badge--muted',
  results_withdrawn: 'badge--red',
};

/**
 * /admin/games/{id} (docs/rules/games.md): the game, its prizes, Pause or Resume, its draws (each leading to its
 * lottery's staff draw page), its charts (docs/rules/games.md#7-charts: `?draw=` names the draw whose sales are
 * charted) and its form. "Not found" (404) for an unknown game. Just created (the new game's form sends it here), it
 * says so above the page. Charts that could not be read leave the rest of the page as it is, with a note.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const created = query.get('notice') === 'created';
  const drawParam = idOf(query.get('draw'));
  const wanted = drawParam === null ? null : Number(drawParam);
  const none = { game: null, values: {} as Record<string, string>, problem: null as string | null, created, stats: null, wanted };
  const id = idOf(params.id);
  if (!id) return data(none, { status: 404 });
  const [r, s] = await Promise.all([
    apiOf(context).call(contract.staffGame, { params: { id } }),
    apiOf(context).call(contract.staffGameStats, { params: { id } }),
  ]);
  if (!r.ok)
    return data(
      { ...none, problem: r.error.code === 'not_found' ? null : errorText(r.error, '') || null },
      { status: pageStatus(r.status) },
    );
  return { game: r.data as Game, values: valuesOf(r.data, Date.now()), problem: null, created, stats: s.ok ? s.data : null, wanted };
}

/** Pause or Resume (`intent`: a small form of its own), or the game's form (`intent=save`): every field sent. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:games.notFound'), 404);
  const form = await request.formData();
  const intent = form.get('intent');
  const failed = (message: string) => (message ? key('admin:games.changeFailedWith', { message }) : key('admin:games.changeFailed'));
  if (intent === 'pause' || intent === 'resume') {
    const r = await apiOf(context).call(contract.updateGame, { params: { id }, body: { active: intent === 'resume' } });
    if (!r.ok)
      return data({ toggleError: refusal(r.error, { failed, fields: [] }).formError } satisfies Result, { status: pageStatus(r.status) });
    return { toggled: intent === 'pause' ? 'paused' : 'resumed' } satisfies Result;
  }
  if (intent !== 'save') return refuse(key('admin:games.changeFailed'), 400);
  const s = await postGame(form, context, {
    editing: true,
    call: (api, body) => api.call(contract.updateGame, { params: { id }, body }),
    failed: (message) => (message ? key('admin:gameForm.saveFailedWith', { message }) : key('admin:gameForm.saveFailed')),
  });
  if (!s.ok) return s.reply;
  return { saved: true } satisfies Result;
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const g = d.game;
  if (!g)
    return (
      <section className="admin-page">
        <Head title={t('common:title', { page: t('games.notFound') })} description={t('games.notFoundLead')} />
        <p className="back-link">
          <Link to={adminPaths.games}>{t('games.back')}</Link>
        </p>
        <h1>{t('games.notFound')}</h1>
        {d.problem ? <Alert kind="error">{t('common:errors.error', { message: d.problem })}</Alert> : null}
      </section>
    );
  const name = gameName(g, lng);
  const description = lng === 'bn' && g.description_bn ? g.description_bn : g.description;
  // The form's own result: after a refused post what was sent, otherwise what is stored.
  const posted =
    result && result.saved === undefined && result.toggled === undefined && result.toggleError === undefined ? result : undefined;
  const values = posted?.values ? { ...d.values, ...posted.values } : d.values;
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: name })} description={t('games.lead')} />
      {result?.saved ? <Notice text={t('games.saved')} /> : null}
      {result?.toggled ? <Notice text={t(result.toggled === 'paused' ? 'games.pausedNotice' : 'games.resumedNotice')} /> : null}
      {result?.toggleError ? <Notice kind="error" text={msg(t, result.toggleError) ?? ''} /> : null}
      {d.created && !result ? <Alert kind="success">{t('games.created')}</Alert> : null}
      <p className="back-link">
        <Link to={adminPaths.games}>{t('games.back')}</Link>
      </p>
      <AdminPageHead title={name} lead={calendarText(t, lng, g.draw_days, g.draw_time)}>
        <div className="game-status">
          <span className={`badge ${g.active ? 'badge--success' : 'badge--muted'}`}>
            {g.active ? t('games.active') : t('games.paused')}
          </span>
          <Form method="post" preventScrollReset>
            <CsrfField />
            <SubmitButton className="btn btn-ghost btn-sm" name="intent" value={g.active ? 'pause' : 'resume'}>
              {g.active ? t('games.pause') : t('games.resume')}
            </SubmitButton>
          </Form>
        </div>
      </AdminPageHead>
      <p className="muted">{t('games.pauseHint')}</p>

      <section className="draw-section card draw-results" aria-labelledby="game-summary">
        <h2 id="game-summary">{t('games.summary')}</h2>
        {description ? <p className="admin-card__wrap">{description}</p> : null}
        <Summary g={g} lng={lng} />
      </section>

      <section className="draw-section" aria-labelledby="game-prizes">
        <h2 id="game-prizes">{t('games.prizes')}</h2>
        <p className="muted">{t('games.prizesLead')}</p>
        <Prizes g={g} lng={lng} t={t} />
      </section>

      <section className="draw-section" aria-labelledby="game-draws">
        <h2 id="game-draws">{t('games.draws')}</h2>
        <p className="muted">{t('games.drawsLead')}</p>
        {g.draws.length ? (
          <Draws draws={g.draws} lng={lng} t={t} />
        ) : (
          <p className="empty-state empty-state--card">{t('games.drawsEmpty')}</p>
        )}
      </section>

      <GameCharts gameId={g.id} stats={d.stats} wanted={d.wanted} lng={lng} t={t} />

      <section className="draw-section" aria-labelledby="game-edit">
        <h2 id="game-edit">{t('games.edit')}</h2>
        <Alert kind="info">{t('games.editNote')}</Alert>
        {/* key: a saved form starts again from the stored values */}
        <GameForm
          key={result?.saved ? 'saved' : 'form'}
          values={values}
          errors={posted?.errors}
          formError={posted?.formError}
          editing
          startsWas={d.values.starts_at ?? ''}
        />
      </section>
    </section>
  );
}

function Summary({ g, lng }: { g: Game; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <dl className="admin-card__facts">
      <Fact label={t('games.calendar')}>{calendarText(t, lng, g.draw_days, g.draw_time)}</Fact>
      <Fact label={t('games.salesClose')}>
        {t('games.salesCloseValue', { count: g.close_minutes, n: formatNumber(g.close_minutes, lng) })}
      </Fact>
      <Fact label={t('games.ahead')}>{formatNumber(g.draws_ahead, lng)}</Fact>
      <Fact label={t('games.startsAt')}>
        <DateTime value={g.starts_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
      </Fact>
      <Fact label={t('games.price')}>
        <Amount value={g.ticket_price} lng={lng} />
      </Fact>
      <Fact label={t('games.ticketsPerDraw')}>{formatNumber(g.tickets_per_draw, lng)}</Fact>
      {g.carry > 0 ? (
        <Fact label={t('games.carry')}>
          <Amount value={g.carry} lng={lng} />
        </Fact>
      ) : null}
    </dl>
  );
}

/** The prize table every new draw of the game is made with: the five tiers, then Lucky Chance. */
function Prizes({ g, lng, t }: { g: Game; lng: Language; t: TFunction }) {
  const fixed = [g.tier2_prize, g.tier3_prize, g.tier4_prize, g.tier5_prize];
  return (
    <AdminTable labelledBy="game-prizes" columns={[t('games.prize'), t('games.match'), t('games.pays')]}>
      <tr>
        <th scope="row">{t('games.tiers.1')}</th>
        <td>{t('games.matches.1')}</td>
        <td>{t('games.jackpotPays', { share: formatNumber(g.jackpot_share, lng) })}</td>
      </tr>
      {fixed.map((amount, i) => (
        <tr key={i}>
          <th scope="row">{t(`games.tiers.${i + 2}`)}</th>
          <td>{t(`games.matches.${i + 2}`)}</td>
          <td>
            <Amount value={amount} lng={lng} />
          </td>
        </tr>
      ))}
      <tr>
        <th scope="row">{t('games.lucky')}</th>
        {g.lucky_count > 0 ? (
          <>
            <td>{t('games.luckyCodes', { count: g.lucky_count, n: formatNumber(g.lucky_count, lng) })}</td>
            <td>
              <Amount value={g.lucky_prize} lng={lng} />
            </td>
          </>
        ) : (
          <td colSpan={2}>{t('games.luckyNone')}</td>
        )}
      </tr>
    </AdminTable>
  );
}

/** The game's draws, the latest first: each one's date leads to its lottery's staff draw page. */
function Draws({ draws, lng, t }: { draws: Draw[]; lng: Language; t: TFunction }) {
  const invalid = t('common:errors.invalidDate');
  const amountOrNone = (v: number | null) => (v ? <Amount value={v} lng={lng} /> : NO_AMOUNT);
  return (
    <AdminTable
      labelledBy="game-draws"
      className="game-draws"
      columns={[
        t('games.drawAt'),
        t('games.state'),
        t('games.sold'),
        t('games.jackpot'),
        t('games.rolloverIn'),
        t('games.rolloverOut'),
        t('games.numbers'),
      ]}
    >
      {draws.map((x) => (
        <tr key={x.lottery_id}>
          <td>
            <Link to={adminPaths.drawLottery(x.lottery_id)}>
              <DateTime value={x.draw_at} lng={lng} withTime invalid={invalid} />
            </Link>
          </td>
          <td>
            <span className={`badge ${STATE_BADGES[x.state]}`}>{t(`games.states.${x.state}`)}</span>
          </td>
          <td>{formatNumber(x.tickets_sold, lng)}</td>
          <td>
            <Amount value={x.jackpot} lng={lng} />
          </td>
          <td>{amountOrNone(x.rollover_in)}</td>
          <td>{amountOrNone(x.rollover_out)}</td>
          <td>
            {x.numbers && x.numbers.length === 6 ? (
              <TicketBalls
                ticket={x.numbers.map((n) => String(n).padStart(2, '0')).join('-')}
                lng={lng}
                label={t('games.numbers')}
                size="sm"
              />
            ) : (
              NO_AMOUNT
            )}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
