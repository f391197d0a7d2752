import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText, fieldErrors } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatDate, formatNumber, toAsciiDigits, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { isUnverifiedBeacon, quicknetRoundTime, type DrawProofReply } from '../../shared/draws/proof.ts';
import { MAX_DRAW_TICKETS, REASON_MAX, type DrawProposal, type Participant, type Prize } from '../../shared/draws/schemas.ts';
import { WithholdingReasonBody, type WithholdingProposal } from '../../shared/draws/withholding.ts';
import type { StaffLottery } from '../../shared/lotteries/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { normaliseTicket } from '../../shared/ticket.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, refuse, refused, submit } from '../components/action.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import { Pager } from '../lotteries/pager.tsx';
import { TicketBalls } from '../lotteries/balls.tsx';
import { pageCount, parsePage } from '../lotteries/paging.ts';
import { AdminTable } from './list.tsx';
import { callerIsSuperuser } from './rights.ts';
import { userOf } from '../guards.ts';

type Lottery = z.output<typeof StaffLottery>;
type Row = z.output<typeof Participant>;
type PrizeRow = z.output<typeof Prize>;
type Proposal = z.output<typeof DrawProposal>;
type Withholding = z.output<typeof WithholdingProposal>;
/**
 * What a post of the selection panel hands back: the chosen tickets (they travel in the form), and what went wrong
 * (a typed ticket under `ticket`; a refused withholding's reason under `reason`, the confirmation staying open).
 */
type DrawProof = z.input<typeof DrawProofReply>;
type Result = FormResult & { chosen: string[]; formErrors?: string[]; verifiable?: boolean; proposal?: boolean };

export const PER_PAGE = 20;
const NOTICES = ['drawn', 'withholdProposed', 'withheld', 'withholdRejected', 'beacon', 'proposed', 'rejected'] as const;
type NoticeKind = (typeof NOTICES)[number];

/** The page's own address with its search and page (`withhold` opens the confirmation of a prize's withholding). */
function drawHref(id: string | number, o: { search?: string; page?: number; del?: number | null; notice?: NoticeKind } = {}): string {
  const q = new URLSearchParams();
  if (o.search) q.set('search', o.search);
  if (o.page && o.page > 1) q.set('page', String(o.page));
  if (o.del) q.set('withhold', String(o.del));
  if (o.notice) q.set('notice', o.notice);
  const s = q.toString();
  return s ? `${adminPaths.drawLottery(id)}?${s}` : adminPaths.drawLottery(id);
}

/**
 * /admin/lotteries/{id}/draw (docs/rules/lotteries-and-sales.md#9-the-draw): the lottery's participants (paged on the
 * server), its prizes, and until it is drawn the winner selection. Every button is a form post with an `intent`; the
 * chosen tickets travel in the form as hidden inputs, so the page works the same without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = idOf(params.id);
  const url = new URL(request.url);
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, 100);
  const page = parsePage(url.searchParams.get('page'), 50_000);
  const raw = url.searchParams.get('notice');
  const notice = (NOTICES as readonly string[]).includes(raw ?? '') ? (raw as NoticeKind) : null;
  const del = Number(idOf(url.searchParams.get('withhold') ?? undefined) ?? 0) || null;
  const none = {
    lottery: null,
    participants: [] as Row[],
    total: 0,
    prizes: [] as PrizeRow[],
    search,
    page,
    notice,
    del,
    superuser: false,
    proof: null as DrawProof | null,
    /** Winners proposed by hand, newest first, and who is looking (the author of a proposal cannot approve it). */
    proposals: [] as Proposal[],
    /** Proposals to withhold a prize, newest first (docs/rules/lotteries-and-sales.md#9-the-draw). */
    withholdings: [] as Withholding[],
    me: 0,
    /** The time of the answer: whether the beacon's round has come and sales are closed (the page itself stays pure). */
    now: Date.now(),
  };
  if (!id) return data({ ...none, problem: null }, { status: 404 });
  const api = apiOf(context);
  const [lottery, people, prizes, superuser, proof, proposals, withholdings] = await Promise.all([
    api.call(contract.staffLottery, { params: { id } }),
    api.call(contract.participants, {
      params: { lotteryId: id },
      query: { search: search || undefined, limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
    }),
    api.call(contract.lotteryPrizes, { params: { lotteryId: id } }),
    // Proposing to withhold a prize is a superuser's action (docs/rules/lotteries-and-sales.md#9-the-draw).
    callerIsSuperuser(context),
    // The verifiable draw's announcement and, once drawn by it, its proof (docs/rules/draws.md).
    api.call(contract.drawProof, { params: { id } }),
    api.call(contract.drawProposals, { params: { id } }),
    api.call(contract.lotteryWithholdings, { params: { id } }),
  ]);
  if (!lottery.ok) {
    return data(
      { ...none, problem: lottery.status === 404 ? null : errorText(lottery.error, '') || null },
      { status: pageStatus(lottery.status) },
    );
  }
  if (!people.ok || !prizes.ok) {
    const failed = !people.ok ? people : !prizes.ok ? prizes : null;
    return data(
      { ...none, lottery: lottery.data, problem: failed && !failed.ok ? errorText(failed.error, '') || null : null },
      { status: 502 },
    );
  }
  return {
    ...none,
    lottery: lottery.data,
    participants: people.data,
    total: people.total ?? people.data.length,
    prizes: prizes.data,
    superuser,
    proof: proof.ok ? proof.data : null,
    proposals: proposals.ok ? proposals.data : [],
    withholdings: withholdings.ok ? withholdings.data : [],
    me: userOf(context).user_id,
    problem: null,
  };
}

/** The chosen tickets as the form carries them, canonical, each once, at most as many as a draw takes. */
function chosenOf(form: FormData): string[] {
  const out: string[] = [];
  for (const v of form.getAll('chosen')) {
    const t = typeof v === 'string' ? normaliseTicket(toAsciiDigits(v)) : null;
    if (t && !out.includes(t) && out.length < MAX_DRAW_TICKETS) out.push(t);
  }
  return out;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:draw.notFound'), 404, { chosen: [] });
  const form = await request.formData();
  const api = apiOf(context);
  const url = new URL(request.url);
  const back = { search: (url.searchParams.get('search') ?? '').trim().slice(0, 100), page: parsePage(url.searchParams.get('page')) };
  const intent = String(form.get('intent') ?? '');
  const chosen = chosenOf(form);
  const winners = Number(form.get('winners')) || MAX_DRAW_TICKETS;

  if (intent === 'withhold-prize') {
    const prizeId = idOf(form.get('prize_id'));
    if (!prizeId) return refuse(key('admin:draw.prizeNotFound'), 404, { chosen });
    // The reason is read with the API's schema; its message shows under the field, the confirmation still open.
    const s = await submit(form, context, {
      schema: WithholdingReasonBody,
      call: (a, body) => a.call(contract.proposeWithholding, { params: { prizeId }, body }),
      fields: ['reason'],
      failed: 'admin:draw.withholdFailed',
      extra: { chosen },
    });
    if (!s.ok) return s.reply;
    return redirect(drawHref(id, { ...back, notice: 'withholdProposed' }), 303);
  }
  if (intent === 'withhold-approve' || intent === 'withhold-reject') {
    const proposalId = idOf(form.get('proposal_id'));
    if (!proposalId) return refuse(key('admin:draw.proposal.notFound'), 404, { chosen });
    const approve = intent === 'withhold-approve';
    const s = await submit(form, context, {
      schema: WithholdingReasonBody,
      call: (a, body) =>
        approve
          ? a.call(contract.approveWithholding, { params: { proposalId }, body })
          : a.call(contract.rejectWithholding, { params: { proposalId }, body }),
      fields: ['reason'],
      failed: 'admin:draw.withholdFailed',
      extra: { chosen },
    });
    if (!s.ok) return s.reply;
    return redirect(drawHref(id, { ...back, notice: approve ? 'withheld' : 'withholdRejected' }), 303);
  }
  if (intent === 'beacon') {
    // What staff paste: drand's signature of the round (96 hex characters), which the server checks against drand's
    // key (docs/rules/draws.md#4-the-beacon); a value alone is no beacon (decision 046).
    const signature = String(form.get('beacon') ?? '').slice(0, 200);
    const r = await api.call(contract.setDrawBeacon, { params: { id }, body: { signature } });
    if (r.ok) return redirect(drawHref(id, { ...back, notice: 'beacon' }), 303);
    return refused(r, { fields: [], both: true, failed: 'admin:draw.verifiable.failed', extra: { chosen, verifiable: true } });
  }
  if (intent === 'verifiable-draw') {
    const r = await api.call(contract.verifiableDraw, { params: { id } });
    if (r.ok) return redirect(drawHref(id, { ...back, notice: 'drawn' }), 303);
    return refused(r, { fields: [], failed: 'admin:draw.verifiable.failed', extra: { chosen, verifiable: true } });
  }
  if (intent === 'approve' || intent === 'reject') {
    const proposalId = idOf(form.get('proposal_id'));
    if (!proposalId) return refuse(key('admin:draw.proposal.notFound'), 404, { chosen });
    const r =
      intent === 'approve'
        ? await api.call(contract.approveDrawProposal, { params: { proposalId } })
        : await api.call(contract.rejectDrawProposal, { params: { proposalId } });
    if (r.ok) return redirect(drawHref(id, { ...back, notice: intent === 'approve' ? 'drawn' : 'rejected' }), 303);
    return refused(r, { fields: [], failed: 'admin:draw.proposal.failed', extra: { chosen, proposal: true } });
  }
  if (intent === 'clear') return { chosen: [] } satisfies Result;
  if (typeof form.get('remove') === 'string') return { chosen: chosen.filter((x) => x !== form.get('remove')) } satisfies Result;
  if (intent === 'add') {
    if (chosen.length >= winners) return refuse(key('admin:draw.full', { count: winners }), 400, { chosen });
    const typed = String(form.get('ticket') ?? '')
      .trim()
      .slice(0, 40);
    const ticket = normaliseTicket(toAsciiDigits(typed));
    if (!ticket || chosen.includes(ticket)) {
      const problem = ticket ? 'admin:draw.alreadyChosen' : 'admin:draw.invalidTicket';
      return data<Result>({ chosen, values: { ticket: typed }, errors: { ticket: key(problem) } }, { status: 400 });
    }
    return { chosen: [...chosen, ticket] } satisfies Result;
  }
  if (intent === 'propose') {
    const reason = String(form.get('reason') ?? '').slice(0, REASON_MAX * 2);
    if (!chosen.length) return refuse(key('admin:draw.noneChosen'), 400, { chosen, values: { reason } });
    const r = await api.call(contract.drawLottery, { body: { lottery_id: id, tickets: chosen, reason } });
    if (r.ok) return redirect(drawHref(id, { ...back, notice: 'proposed' }), 303);
    // The reason's own message shows under its field; the tickets' messages in the list above.
    const { reason: reasonError, ...fe } = fieldErrors(r.error);
    const messages = Object.values(fe).filter(Boolean);
    return data<Result>(
      {
        chosen,
        values: { reason },
        ...(reasonError ? { errors: { reason: reasonError } } : {}),
        formError: key('admin:draw.finishFailed'),
        formErrors: messages.length || reasonError ? messages : [errorText(r.error, '')],
      },
      { status: pageStatus(r.status) },
    );
  }
  return data<Result>({ chosen }, { status: 400 });
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const l = d.lottery;
  if (!l)
    return (
      <section className="admin-page">
        <Head title={t('common:title', { page: t('draw.notFound') })} description={t('draw.lead')} />
        <p className="back-link">
          <Link to={adminPaths.lotteries}>{t('draw.back')}</Link>
        </p>
        <h1>{t('draw.notFound')}</h1>
        {d.problem ? <Alert kind="error">{t('common:errors.error', { message: d.problem })}</Alert> : null}
      </section>
    );
  const name = lng === 'bn' && l.name_bn ? l.name_bn : l.name;
  const pages = pageCount(d.total, PER_PAGE);
  const drawn = l.is_result_published || l.prizes > 0 || d.prizes.length > 0;
  const pending = d.proposals.find((p) => p.status === 'pending');
  // A numbers lottery is drawn by the procedure only (docs/rules/lotteries-and-sales.md#9-the-draw).
  const numbers = l.kind === 'numbers';
  const approved = d.proposals.find((p) => p.status === 'approved');
  // Winners by hand are chosen only after the end of sales, from the tickets frozen then (docs/rules/lotteries-and-sales.md#9-the-draw).
  const salesOpen = Date.parse(l.end_date) > d.now;
  const salesEnd = formatDate(l.end_date, lng, { withTime: true }) ?? l.end_date;
  const here = drawHref(l.id, { search: d.search, page: d.page });
  const confirming = d.del !== null && d.superuser ? d.prizes.find((p) => p.id === d.del) : undefined;
  const confirmHref = confirming ? drawHref(l.id, { search: d.search, page: d.page, del: confirming.id }) : here;
  return (
    <section className="admin-page draw-page">
      <Head title={t('common:title', { page: t('draw.title', { name }) })} description={t('draw.lead')} />
      {d.notice ? <Notice text={t(`draw.notice.${d.notice}`)} /> : null}
      <p className="back-link">
        <Link to={adminPaths.lotteries}>{t('draw.back')}</Link>
      </p>
      <header className="admin-page__head">
        <div>
          <h1>{t('draw.title', { name })}</h1>
          <p className="muted">
            {numbers ? (
              <>
                {t('draw.numbersFacts', { sold: formatNumber(l.tickets_sold, lng) })} <Amount value={l.jackpot ?? 0} lng={lng} />
              </>
            ) : (
              <>
                {t(l.tickets_sold > 0 && l.tickets_sold < l.winners ? 'draw.factsFew' : 'draw.facts', {
                  count: l.winners,
                  winners: formatNumber(l.winners, lng),
                  sold: formatNumber(l.tickets_sold, lng),
                })}{' '}
                <Amount value={l.total_prize} lng={lng} />
              </>
            )}
          </p>
        </div>
      </header>
      {d.problem ? <Alert kind="error">{t('common:errors.error', { message: d.problem })}</Alert> : null}

      {d.proof ? (
        <Verifiable proof={d.proof} endDate={l.end_date} now={d.now} drawn={drawn} numbers={numbers} action={here} result={result} />
      ) : null}

      {drawn ? (
        <Results
          l={l}
          prizes={d.prizes}
          lng={lng}
          approved={approved}
          drawnNumbers={d.proof && 'numbers' in d.proof ? d.proof.numbers : null}
        />
      ) : numbers && !pending ? (
        <p className="draw-section muted">{t('draw.numbersByProcedure')}</p>
      ) : null}

      <div className="draw-section">
        <h2 id="draw-prizes">{t('draw.prizes')}</h2>
        {d.prizes.length === 0 ? (
          <p className="muted">{t('draw.noPrizes')}</p>
        ) : (
          <AdminTable
            labelledBy="draw-prizes"
            columns={[
              t('draw.number'),
              ...(numbers ? [t('draw.tier')] : []),
              t('draw.ticket'),
              t('draw.prizeMoney'),
              <span key="actions" className="visually-hidden">
                {t('draw.actions')}
              </span>,
            ]}
          >
            {d.prizes.map((p, i) => (
              <tr key={p.id}>
                <td>{formatNumber(i + 1, lng)}</td>
                {numbers ? <td>{p.tier ? t(`draw.tiers.${p.tier}`) : ''}</td> : null}
                <td className="nowrap ticket-no">{p.ticket}</td>
                <td>
                  <Amount value={p.prize_money} lng={lng} />
                </td>
                <td>
                  {p.withheld_reason ? (
                    <span className="badge badge--failed draw-withheld">{t('draw.withheld', { reason: p.withheld_reason })}</span>
                  ) : d.superuser && !d.withholdings.some((w) => w.prize_id === p.id && w.status === 'pending') ? (
                    <Link
                      className="btn btn-ghost btn-sm"
                      to={drawHref(l.id, { search: d.search, page: d.page, del: p.id })}
                      preventScrollReset
                      aria-label={t('draw.withholdOne', { ticket: p.ticket })}
                    >
                      {t('draw.withhold')}
                    </Link>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
        {d.prizes.length > 0 && !d.superuser ? <p className="muted">{t('draw.withholdSuperuserOnly')}</p> : null}
        <Withholdings items={d.withholdings.filter((w) => w.status === 'pending')} me={d.me} action={here} result={result} />
        {/* A refused withholding: the API's message, a toast with JavaScript (an alert here without). */}
        {drawn && result?.formError ? <Notice kind="error" text={msg(t, result.formError) ?? ''} /> : null}
      </div>

      <div className="draw-section">
        <h2 id="draw-participants">{t('draw.participants')}</h2>
        <Form method="get" action={adminPaths.drawLottery(l.id)} className="admin-filters" role="search">
          <div className="field">
            <label htmlFor="participant-search">{t('draw.searchLabel')}</label>
            <input id="participant-search" name="search" type="search" defaultValue={d.search} maxLength={100} />
          </div>
          <button type="submit" className="btn btn-ghost">
            {t('common.search')}
          </button>
        </Form>
        <p className="admin-count" aria-live="polite">
          {t('draw.count', { count: d.total, n: formatNumber(d.total, lng) })}
        </p>
        {d.participants.length === 0 ? (
          <p className="empty-state empty-state--card">{d.page > 1 ? t('common.pageEmpty') : t('draw.noParticipants')}</p>
        ) : (
          <AdminTable
            labelledBy="draw-participants"
            columns={[t('draw.name'), t('draw.phone'), t('draw.amount'), t('draw.ticket'), t('draw.status')]}
          >
            {d.participants.map((p) => (
              <tr key={p.id}>
                <td>{p.name || t('common.notAvailable')}</td>
                <td className="nowrap">{p.phone ?? t('common.notAvailable')}</td>
                <td>
                  <Amount value={p.amount} lng={lng} />
                </td>
                <td className="nowrap ticket-no">{p.ticket}</td>
                <td>
                  <span className="badge badge--success">{t(`draw.statuses.${p.status}`)}</span>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
        <Pager page={d.page} pages={pages} href={(p) => drawHref(l.id, { search: d.search, page: p })} texts="admin:common" lng={lng} />
      </div>

      {/* Winners by hand come last, after the verifiable draw, the prizes and the participants (docs/rules/lotteries-and-sales.md#9-the-draw). */}
      {drawn ? null : pending ? (
        <PendingProposal
          p={pending}
          mine={pending.proposed_by.id === d.me}
          salesOpen={salesOpen ? salesEnd : null}
          action={here}
          result={result}
        />
      ) : numbers ? null : salesOpen ? (
        <div className="draw-section card draw-select">
          <h2>{t('draw.select')}</h2>
          {result?.formError ? (
            <Alert kind="error">
              {msg(t, result.formError)} {result.formErrors?.join(' ')}
            </Alert>
          ) : null}
          <p className="muted">{t('draw.proposal.salesOpen', { date: salesEnd })}</p>
        </div>
      ) : (
        <Selection lotteryId={l.id} winners={l.winners} action={here} result={result} />
      )}

      {confirming ? (
        // Posted to the confirmation's own address: a refused reason comes back with the dialog still open.
        <ConfirmDialog
          titleId="withhold-prize-title"
          title={t('draw.withholdTitle')}
          action={confirmHref}
          cancelHref={here}
          hidden={{ prize_id: confirming.id }}
          fields={
            <Field
              label={t('draw.withholdReason')}
              name="reason"
              required
              maxLength={REASON_MAX}
              autoComplete="off"
              defaultValue={result?.values?.reason ?? ''}
              hint={t('draw.withholdReasonHint')}
              error={msg(t, result?.errors?.reason)}
            />
          }
          intent="withhold-prize"
          confirm={t('draw.withholdConfirm')}
          cancel={t('draw.cancel')}
          danger
        >
          <p>{t('draw.withholdText', { ticket: confirming.ticket })}</p>
          <p>
            <Amount value={confirming.prize_money} lng={lng} />
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/**
 * The pending proposals to withhold a prize, each a plain form with a reason: a second staff member approves or rejects
 * it, its author withdraws it (docs/rules/lotteries-and-sales.md#9-the-draw).
 */
function Withholdings({ items, me, action, result }: { items: Withholding[]; me: number; action: string; result: Result | undefined }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  if (!items.length) return null;
  return (
    <div className="draw-withholdings">
      <h3 id="draw-withholdings">{t('draw.withholding.title')}</h3>
      {items.map((w) => {
        const own = w.proposed_by.id === me;
        return (
          <Form key={w.id} method="post" action={action} className="card draw-withholding" aria-labelledby={`withholding-${w.id}`}>
            <CsrfField />
            <input type="hidden" name="proposal_id" value={w.id} />
            <p id={`withholding-${w.id}`}>
              <span className="nowrap ticket-no">{w.ticket}</span> <Amount value={w.prize_money} lng={lng} />
            </p>
            <p>
              {t('draw.withholding.by', {
                name: w.proposed_by.name,
                reason: w.reason,
                date: formatDate(w.proposed_at, lng, { withTime: true }) ?? w.proposed_at,
              })}
            </p>
            {own ? <p className="muted">{t('draw.withholding.own')}</p> : null}
            <Field
              label={t('draw.withholding.decisionReason')}
              name="reason"
              required
              maxLength={REASON_MAX}
              autoComplete="off"
              error={msg(t, result?.errors?.reason)}
            />
            <div className="draw-withholding__buttons">
              {own ? null : (
                <SubmitButton name="intent" value="withhold-approve" className="btn btn-danger">
                  {t('draw.withholding.approve')}
                </SubmitButton>
              )}
              <SubmitButton name="intent" value="withhold-reject" className="btn btn-ghost">
                {own ? t('draw.withholding.withdraw') : t('draw.withholding.reject')}
              </SubmitButton>
            </div>
          </Form>
        );
      })}
    </div>
  );
}

/** The winner selection: every button posts the form; the chosen tickets are its hidden inputs. */
function Selection({
  lotteryId,
  winners,
  action,
  result,
}: {
  lotteryId: number;
  winners: number;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const chosen = result?.chosen ?? [];
  const full = chosen.length >= winners;
  const ticketError = msg(t, result?.errors?.ticket);
  return (
    <div className="draw-section card draw-select">
      <h2 id="draw-select">{t('draw.select')}</h2>
      <p className="muted">{t('draw.selectLead', { count: winners, n: formatNumber(winners, lng) })}</p>
      <p className="draw-unverifiable-note">{t('draw.proposal.lead')}</p>
      {/* key: the typed ticket starts empty again once it was added */}
      <Form method="post" action={action} noValidate className="draw-select__form" key={chosen.join(',')}>
        <CsrfField />
        <input type="hidden" name="lottery_id" value={lotteryId} />
        <input type="hidden" name="winners" value={winners} />
        {chosen.map((c) => (
          <input key={c} type="hidden" name="chosen" value={c} />
        ))}
        {result?.formError ? (
          <Alert kind="error">
            {msg(t, result.formError)}
            {result.formErrors?.length ? (
              <ul>
                {result.formErrors.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        <div className={`field draw-select__ticket${ticketError ? ' has-error' : ''}`}>
          <label htmlFor="draw-ticket">{t('draw.ticketLabel')}</label>
          <div className="draw-select__row">
            <input
              id="draw-ticket"
              name="ticket"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={40}
              placeholder="xx-xx-xx-xx-xx-x"
              defaultValue={result?.errors?.ticket ? (result.values?.ticket ?? '') : ''}
              aria-invalid={ticketError ? true : undefined}
              aria-describedby={ticketError ? 'draw-ticket-err' : 'draw-ticket-hint'}
            />
            {/* First in the form: Enter in the ticket box adds the ticket. */}
            <SubmitButton name="intent" value="add" className="btn btn-primary" disabled={full}>
              {t('draw.add')}
            </SubmitButton>
          </div>
          {ticketError ? (
            <p id="draw-ticket-err" className="field__error">
              {ticketError}
            </p>
          ) : (
            <p id="draw-ticket-hint" className="field__hint">
              {t('draw.ticketHint')}
            </p>
          )}
        </div>
        <div className="draw-select__actions">
          <SubmitButton name="intent" value="clear" className="btn btn-ghost" disabled={!chosen.length}>
            {t('draw.clear')}
          </SubmitButton>
        </div>
        <h3 id="draw-chosen">{t('draw.chosen', { n: formatNumber(chosen.length, lng), winners: formatNumber(winners, lng) })}</h3>
        {chosen.length === 0 ? (
          <p className="muted">{t('draw.none')}</p>
        ) : (
          <ol className="draw-chosen" aria-labelledby="draw-chosen">
            {chosen.map((c) => (
              <li key={c}>
                <span className="ticket-no nowrap">{c}</span>
                <button
                  type="submit"
                  name="remove"
                  value={c}
                  className="btn btn-ghost btn-sm"
                  aria-label={t('draw.removeOne', { ticket: c })}
                >
                  {t('draw.remove')}
                </button>
              </li>
            ))}
          </ol>
        )}
        <Field
          label={t('draw.proposal.reason')}
          name="reason"
          maxLength={REASON_MAX}
          autoComplete="off"
          defaultValue={result?.values?.reason ?? ''}
          hint={t('draw.proposal.reasonHint')}
          error={msg(t, result?.errors?.reason)}
        />
        <SubmitButton name="intent" value="propose" className="btn btn-primary btn-block" disabled={!chosen.length}>
          {t('draw.proposal.propose')}
        </SubmitButton>
      </Form>
    </div>
  );
}

/**
 * Winners proposed by hand, waiting for a second staff member (docs/rules/lotteries-and-sales.md#9-the-draw): who
 * proposed them, when and why; Approve and Reject for another staff member, Withdraw for the author. Approve only once
 * sales are closed (`salesOpen`: when they end, while they are open; a proposal an older server took before the close).
 */
function PendingProposal({
  p,
  mine,
  salesOpen,
  action,
  result,
}: {
  p: Proposal;
  mine: boolean;
  salesOpen: string | null;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  return (
    <div className="draw-section card draw-proposal">
      <h2 id="draw-proposal">{t('draw.proposal.title')}</h2>
      <p className="draw-unverifiable-note">{t('draw.proposal.pendingLead')}</p>
      {result?.proposal && result.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <ProposalFacts p={p} lng={lng} />
      <ol className="draw-chosen" aria-labelledby="draw-proposal">
        {p.tickets.map((c) => (
          <li key={c}>
            <span className="ticket-no nowrap">{c}</span>
          </li>
        ))}
      </ol>
      <Form method="post" action={action} className="draw-select__actions" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="proposal_id" value={p.id} />
        {mine ? (
          <>
            <p className="muted">{t('draw.proposal.mine')}</p>
            <SubmitButton name="intent" value="reject" className="btn btn-ghost">
              {t('draw.proposal.withdraw')}
            </SubmitButton>
          </>
        ) : (
          <>
            {salesOpen ? (
              <p className="muted">{t('draw.proposal.approveAfterClose', { date: salesOpen })}</p>
            ) : (
              <SubmitButton name="intent" value="approve" className="btn btn-primary">
                {t('draw.proposal.approve')}
              </SubmitButton>
            )}
            <SubmitButton name="intent" value="reject" className="btn btn-ghost">
              {t('draw.proposal.reject')}
            </SubmitButton>
          </>
        )}
      </Form>
    </div>
  );
}

/** Who proposed the winners and why, and who decided, with the times. */
function ProposalFacts({ p, lng }: { p: Proposal; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <dl className="admin-card__facts">
      <div>
        <dt>{t('draw.proposal.by')}</dt>
        <dd>
          {p.proposed_by.name} · <DateTime value={p.proposed_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
        </dd>
      </div>
      {p.decided_by && p.decided_at ? (
        <div>
          <dt>{t('draw.proposal.approvedBy')}</dt>
          <dd>
            {p.decided_by.name} · <DateTime value={p.decided_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t('draw.proposal.reason')}</dt>
        <dd className="admin-card__wrap">{p.reason}</dd>
      </div>
    </dl>
  );
}

/** Once drawn: when, the total prize and how it was split (the prizes table follows); by hand, who chose and approved. */
function Results({
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

/**
 * The verifiable draw (docs/rules/draws.md): the commitment and the drand round announced at publication, the beacon
 * value once its round has come (a form until it is entered), and "Draw winners" once sales are closed and the value is
 * known. After a draw by the procedure: the seed and what anyone can check.
 */
function Verifiable({
  proof,
  endDate,
  now,
  drawn,
  numbers,
  action,
  result,
}: {
  proof: DrawProof;
  endDate: string;
  now: number;
  drawn: boolean;
  numbers: boolean;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const roundAt = proof.beacon ? quicknetRoundTime(proof.beacon.round) : null;
  const value = proof.beacon && 'value' in proof.beacon ? proof.beacon.value : undefined;
  // A value typed without drand's signature (before decision 046) or a sample: shown as such, and the form stays until
  // the round's signature replaces it; the draw waits for it.
  const unverified = proof.algorithm !== 'unverifiable' && isUnverifiedBeacon(proof.beacon);
  const failed = result?.verifiable && result.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null;
  return (
    <div className="draw-section draw-verifiable">
      <h2>{t('draw.verifiable.title')}</h2>
      {proof.algorithm === 'unverifiable' ? (
        <p className="muted">{t('draw.verifiable.unverifiable')}</p>
      ) : (
        <>
          <dl className="admin-card__facts">
            <div>
              <dt>{t('draw.verifiable.commitment')}</dt>
              <dd className="admin-card__wrap hash">{proof.commitment}</dd>
            </div>
            <div>
              <dt>{t('draw.verifiable.round')}</dt>
              <dd>
                {toDigits(String(proof.beacon.round), lng)}
                {roundAt ? (
                  <>
                    {' · '}
                    <DateTime value={roundAt.toISOString()} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                  </>
                ) : null}
              </dd>
            </div>
            {value ? (
              <div>
                <dt>{t('draw.verifiable.value')}</dt>
                <dd className="admin-card__wrap hash">{value}</dd>
                {unverified ? (
                  <dd>
                    <span className="badge badge--red">{t('draw.verifiable.unverified')}</span>{' '}
                    <span className="muted">{t('draw.verifiable.unverifiedHint')}</span>
                  </dd>
                ) : null}
              </div>
            ) : null}
            {'seed' in proof ? (
              <div>
                <dt>{t('draw.verifiable.seed')}</dt>
                <dd className="admin-card__wrap hash">{proof.seed}</dd>
              </div>
            ) : null}
          </dl>
          {failed}
          {drawn ? (
            <p className="muted">{t('seed' in proof ? 'draw.verifiable.drawnByProcedure' : 'draw.verifiable.unverifiable')}</p>
          ) : !value || unverified ? (
            roundAt && roundAt.getTime() <= now ? (
              <Form method="post" action={action} className="form draw-verifiable__beacon" preventScrollReset>
                <CsrfField />
                <div className="field">
                  <label htmlFor="draw-beacon">{t('draw.verifiable.valueLabel')}</label>
                  <input id="draw-beacon" name="beacon" type="text" autoComplete="off" spellCheck={false} maxLength={200} />
                  <p className="field__hint">{t('draw.verifiable.valueHint', { round: proof.beacon.round })}</p>
                </div>
                <SubmitButton name="intent" value="beacon" className="btn btn-primary">
                  {t('draw.verifiable.enter')}
                </SubmitButton>
              </Form>
            ) : (
              <p className="muted">{t('draw.verifiable.waitRound')}</p>
            )
          ) : Date.parse(endDate) > now ? (
            <p className="muted">{t('draw.verifiable.salesOpen')}</p>
          ) : (
            <Form method="post" action={action} preventScrollReset>
              <CsrfField />
              <SubmitButton name="intent" value="verifiable-draw" className="btn btn-primary btn-block">
                {t(numbers ? 'draw.verifiable.drawNumbers' : 'draw.verifiable.draw')}
              </SubmitButton>
            </Form>
          )}
        </>
      )}
    </div>
  );
}
