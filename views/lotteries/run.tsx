import { data, Form, Link, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText } from '../../shared/api-types.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { paths } from '../../shared/paths.ts';
import { RUN_DRAWS, type Run } from '../../shared/purchases/runs.ts';
import { IdempotencyKey } from '../../shared/purchases/schemas.ts';
import { idOf, pageStatus, refuse, refused } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, field, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { IDEMPOTENCY_FIELD, newIdempotencyKey } from './buy-form.tsx';
import { toRunCheckout } from './run-checkout.ts';
import { Head } from '../components/head.tsx';
import { Amount, withElements } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { apiOf } from '../context.ts';
import { useTranslation, type TFunction } from '../i18n.tsx';
import { claimable, TicketCard } from './ticket-card.tsx';

type RunData = z.output<typeof Run>;

/**
 * /my-lotteries/runs/{id}: one of the player's runs of consecutive draws (docs/rules/games.md#6-consecutive-draws-and-play-slips):
 * what it is (draws, lines, the one amount, its state) and each of its draws in order, with the numbers played and,
 * once drawn, the numbers drawn and what it won. Another player's run is not found, as the API says.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = idOf(params.runId);
  if (!id) throw data(null, { status: 404 });
  const r = await apiOf(context).call(contract.getRun, { params: { id } });
  // The key of "Play these numbers again", made with the page: a form sent twice makes one run.
  if (r.ok) {
    // A prize of the run the player could claim now: whether a change of his phone, e-mail or password holds his
    // claims (docs/rules/lotteries-and-sales.md#11-prize-claims), as My Lotteries asks.
    let heldUntil: string | null = null;
    if (r.data.entries.some((e) => claimable(e))) {
      const w = await apiOf(context).call(contract.myWinningTickets, { query: { limit: 1, offset: 0 } });
      heldUntil = w.ok ? (w.data[0]?.held_until ?? null) : null;
    }
    return { run: r.data, problem: null as string | null, key: newIdempotencyKey(), heldUntil };
  }
  if (r.error.code === 'not_found') throw data(null, { status: 404 });
  return data({ run: null as RunData | null, problem: errorText(r.error, ''), key: '', heldUntil: null }, { status: pageStatus(r.status) });
}

/** A run finished (every draw drawn) or not paid: its numbers may be played again. */
const replayable = (run: RunData): boolean =>
  run.status === 'failed' || (run.status === 'paid' && run.entries.every((e) => e.lottery.is_result_published));

/** The runs offered: the run's own length when it is one, else the longest offered that it reaches. */
const againDraws = (draws: number): number => [...RUN_DRAWS].reverse().find((n) => n <= draws) ?? 1;

/**
 * "Play these numbers again": a new run of the game's next draws with the same lines and length, made with the page's
 * key, then straight to bKash for the whole (docs/rules/games.md#6-consecutive-draws-and-play-slips); a refusal (numbers
 * taken, limits) is said on the page.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = idOf(params.runId);
  const k = IdempotencyKey.safeParse(field(form, IDEMPOTENCY_FIELD));
  if (!id || !k.success) return refuse(key('lottery:buy.errors.reload'), 400);
  const api = apiOf(context);
  const before = await api.call(contract.getRun, { params: { id } });
  if (!before.ok) return refused(before, { fields: [], failed: 'lottery:buy.errors.failed' });
  const lines = [...new Set(before.data.entries.map((e) => e.ticket))];
  const r = await api.call(contract.createRun, {
    body: { game_id: before.data.game_id, draws: againDraws(before.data.draws), lines },
    idempotencyKey: k.data,
  });
  if (!r.ok) return refused(r, { fields: [], failed: 'lottery:buy.errors.failed' });
  return toRunCheckout(api, r.data);
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const { run, problem, key: againKey, heldUntil } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const title = t('run.title');
  return (
    <>
      <Head title={t('common:title', { page: title })} description={t('run.lead')} />
      <PageHead title={title} lead={t('run.lead')} />
      <div className="container narrow run-page">
        {!run ? (
          <Alert kind="error">{t('common:errors.error', { message: problem || t('run.loadFailed') })}</Alert>
        ) : (
          <>
            {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
            <RunView run={run} t={t} lng={lng as Language} againKey={againKey} heldUntil={heldUntil} />
          </>
        )}
        <p>
          <Link to={paths.myLotteries}>{t('run.back')}</Link>
        </p>
      </div>
    </>
  );
}

function RunView({
  run,
  t,
  lng,
  againKey,
  heldUntil,
}: {
  run: RunData;
  t: TFunction;
  lng: Language;
  againKey: string;
  heldUntil: string | null;
}) {
  const won = run.entries.reduce((sum, e) => sum + (e.prize && !e.prize.withheld_reason ? e.prize.prize_money : 0), 0);
  return (
    <>
      <section className="card run-page__summary" aria-labelledby="run-summary">
        <h2 id="run-summary">{t(`run.status.${run.status}`)}</h2>
        <p>
          {withElements((v) => t('run.summary', v), {
            draws: <span className="nowrap">{t('run.drawsCount', { count: run.draws, n: formatNumber(run.draws, lng) })}</span>,
            lines: <span className="nowrap">{t('run.linesCount', { count: run.lines, n: formatNumber(run.lines, lng) })}</span>,
            amount: <Amount value={run.amount} lng={lng} />,
          })}
        </p>
        {run.draws < run.draws_asked ? (
          <p className="muted">{t('run.shortened', { asked: formatNumber(run.draws_asked, lng), draws: formatNumber(run.draws, lng) })}</p>
        ) : null}
        {won > 0 ? (
          <p className="run-page__won">{withElements((v) => t('run.won', v), { amount: <Amount value={won} lng={lng} /> })}</p>
        ) : null}
        {run.status === 'pending' ? (
          <Link className="btn btn-bkash" to={paths.payment(run.lead_id)}>
            {withElements((v) => t('run.pay', v), { amount: <Amount value={run.amount} lng={lng} /> })}
          </Link>
        ) : null}
        {replayable(run) ? (
          // A whole document: the answer sends the browser to bKash's page.
          <Form method="post" reloadDocument className="run-page__again">
            <CsrfField />
            <input type="hidden" name={IDEMPOTENCY_FIELD} value={againKey} />
            <SubmitButton className="btn btn-bkash">
              {t('run.again', { count: againDraws(run.draws), n: formatNumber(againDraws(run.draws), lng) })}
            </SubmitButton>
          </Form>
        ) : null}
      </section>
      {/* Each entry as My Lotteries tells a ticket: its numbers, its draw, what it matched, its prize and its claim. */}
      <ol className="my-tickets run-page__draws" aria-label={t('run.draws')}>
        {run.entries.map((e) => (
          <li key={e.id}>
            <TicketCard tx={e} heldUntil={heldUntil} inRun>
              <p className="run-page__proof">
                <Link to={paths.results(e.lottery.id)}>{t('run.proof')}</Link>
              </p>
            </TicketCard>
          </li>
        ))}
      </ol>
    </>
  );
}
