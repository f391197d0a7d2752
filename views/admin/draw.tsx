import { data, Form, Link, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatDate, formatNumber } from '../../shared/dates.ts';
import { REASON_MAX } from '../../shared/draws/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus } from '../components/action.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Alert, Field } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { msg } from '../components/messages.ts';
import { Amount } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import { Pager } from '../lotteries/pager.tsx';
import { pageCount, parsePage } from '../lotteries/paging.ts';
import { AdminTable } from './list.tsx';
import { callerIsSuperuser } from './rights.ts';
import { userOf } from '../guards.ts';
import {
  drawHref,
  NOTICES,
  type DrawProof,
  type NoticeKind,
  type PrizeRow,
  type Proposal,
  type Result,
  type Row,
  type Withholding,
} from './draw/page.ts';
import { PendingProposal } from './draw/proposals.tsx';
import { Results } from './draw/results.tsx';
import { Selection } from './draw/selection.tsx';
import { Verifiable } from './draw/verifiable.tsx';
import { Withholdings } from './draw/withholdings.tsx';

export { action } from './draw/action.ts';

export const PER_PAGE = 20;

/**
 * /admin/lotteries/{id}/draw (docs/rules/lotteries-and-sales.md#9-the-draw): the lottery's participants (paged on the
 * server), its prizes, and until it is drawn the winner selection. Every button is a form post with an `intent`, read
 * by ./draw/action.ts through one schema; the chosen tickets travel in the form as hidden inputs, so the page works
 * the same without JavaScript. Its sections are in ./draw/.
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
      { ...none, problem: lottery.error.code === 'not_found' ? null : errorText(lottery.error, '') || null },
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

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const posted = useActionData<Result>();
  // A form the page could not read: its message at the top, every section as if nothing was posted.
  const unreadable = posted?.unreadable ? posted.formError : undefined;
  const result = unreadable ? { chosen: posted?.chosen ?? [] } : posted;
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
      {unreadable ? <Alert kind="error">{msg(t, unreadable)}</Alert> : null}

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
