import { Form, useActionData, useLoaderData, useNavigation, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { z } from 'zod';
import { ticketState } from '../../shared/purchases/states.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { formatTaka } from '../../shared/money.ts';
import { StatusBody, TRANSACTION_STATUSES, type StaffTransaction, type TransactionStatus } from '../../shared/purchases/schemas.ts';
import { ApprovalReasonBody, type ApprovalProposal } from '../../shared/purchases/approvals.ts';
import type { StaffHeldTicket } from '../../shared/purchases/staff-tickets.ts';
import { REASON_MAX } from '../../shared/draws/schemas.ts';
import { IdParams } from '../../shared/lotteries/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { submit } from '../components/action.ts';
import { Field, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import {
  AdminCards,
  AdminFilters,
  adminHref,
  AdminPageHead,
  AdminResults,
  FilterInput,
  FilterSelect,
  listData,
  listPlace,
  oneOf,
  Fact,
} from './list.tsx';

type Row = z.output<typeof StaffTransaction>;
type Proposal = z.output<typeof ApprovalProposal>;
type Held = z.output<typeof StaffHeldTicket>;
/** The open proposals shown at the top of the page, and the staff-held tickets a superuser sees. */
const PROPOSALS_SHOWN = 50;
const HELD_SHOWN = 20;
type StatusFilter = 'all' | TransactionStatus;
export const PER_PAGE = 20;
const FILTERS: readonly StatusFilter[] = ['all', ...TRANSACTION_STATUSES];

/**
 * The one-person staff actions of each status (docs/rules/lotteries-and-sales.md#8-transaction-states): the status a
 * button asks for and its label's key. Approving is two people's act: a pending card offers a proposal instead
 * (docs/rules/payments.md#1-who-may-do-what).
 */
const ACTIONS: Record<TransactionStatus, readonly { to: TransactionStatus; label: string; kind: 'primary' | 'danger' | 'ghost' }[]> = {
  pending: [{ to: 'failed', label: 'reject', kind: 'danger' }],
  success: [{ to: 'pending', label: 'removeApproval', kind: 'ghost' }],
  failed: [{ to: 'pending', label: 'moveToPending', kind: 'ghost' }],
};

/** What a posted status change did: a notice or the API's message; `at` makes each one a toast of its own. */
type Result = FormResult & { at: number };
/** A card's button: the transaction (the id of the API's address) and the status it asks for. */
const StatusForm = z.object({ id: IdParams.shape.id, status: StatusBody.shape.status });
/** A card's proposal to approve, with the reason. */
const ProposeForm = z.object({ intent: z.literal('propose'), id: IdParams.shape.id, reason: ApprovalReasonBody.shape.reason });
/** A second staff member's decision on an open proposal, with the reason. */
const DecideForm = z.object({
  intent: z.enum(['approve', 'reject']),
  proposal: IdParams.shape.id,
  reason: ApprovalReasonBody.shape.reason,
});

const filterOf = (raw: string | null): StatusFilter => oneOf(FILTERS, raw) ?? 'all';

/** `?search=&status=&page=` of the list, page 1, 'all' and an empty search left out. */
const listHref = (search: string, status: StatusFilter, page: number): string =>
  adminHref(adminPaths.transactions, { search, status }, page);

/** /admin/transactions: every transaction, searched, filtered by status and paged by the server (GET /api/v1/transactions/). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const status = filterOf(url.searchParams.get('status'));
  const api = apiOf(context);
  const [r, open, held] = await Promise.all([
    api.call(contract.transactions, {
      query: { search: search || undefined, status: status === 'all' ? undefined : status, limit, offset },
    }),
    api.call(contract.approvalProposals, { query: { limit: PROPOSALS_SHOWN } }),
    // A superuser's section (docs/rules/accounts-and-codes.md#12-staff-and-superusers): refused to other staff, then not shown.
    api.call(contract.staffHeldTickets, { query: { limit: HELD_SHOWN } }),
  ]);
  const proposals: Proposal[] = open.ok ? open.data : [];
  return {
    search,
    status,
    ...listData(r, page),
    proposals,
    held: held.ok ? { items: held.data as Held[], total: held.total ?? held.data.length } : null,
  };
}

/** A status change posted by a card's button (PUT /api/v1/transactions/{id}/); the list is loaded again after it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const at = Date.now();
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'propose') {
    const p = await submit(form, context, {
      schema: ProposeForm,
      call: (api, { id, reason }) => api.call(contract.proposeApproval, { params: { id: String(id) }, body: { reason } }),
      fields: [],
      fix: key('admin:transactions.approval.reasonNeeded'),
      failed: 'admin:transactions.updateFailed',
      extra: { at },
    });
    if (!p.ok) return p.reply;
    return { notice: key('admin:transactions.approval.proposed'), at } satisfies Result;
  }
  if (intent === 'approve' || intent === 'reject') {
    const d = await submit(form, context, {
      schema: DecideForm,
      call: (api, { intent: step, proposal, reason }) =>
        api.call(step === 'approve' ? contract.approveApprovalProposal : contract.rejectApprovalProposal, {
          params: { proposalId: String(proposal) },
          body: { reason },
        }),
      fields: [],
      fix: key('admin:transactions.approval.reasonNeeded'),
      failed: 'admin:transactions.updateFailed',
      extra: { at },
    });
    if (!d.ok) return d.reply;
    return {
      notice: key(d.input.intent === 'approve' ? 'admin:transactions.approval.approved' : 'admin:transactions.approval.rejected'),
      at,
    } satisfies Result;
  }
  const s = await submit(form, context, {
    schema: StatusForm,
    call: (api, { id, status }) => api.call(contract.updateTransaction, { params: { id: String(id) }, body: { status } }),
    fields: [],
    fix: key('admin:transactions.updateFailed'),
    failed: 'admin:transactions.updateFailed',
    extra: { at },
  });
  if (!s.ok) return s.reply;
  return { notice: key(s.input.status === 'failed' ? 'admin:transactions.rejected' : 'admin:transactions.updated'), at } satisfies Result;
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const title = t('transactions.title');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={t('transactions.lead')} />
      {/* key: every change is a toast of its own, even with the same words as the one before */}
      {result?.notice ? <Notice key={result.at} text={msg(t, result.notice) ?? ''} /> : null}
      {result?.formError ? <Notice key={result.at} kind="error" text={msg(t, result.formError) ?? ''} /> : null}
      <AdminPageHead title={title} lead={t('transactions.lead')} />
      <AdminFilters>
        <FilterInput id="transaction-search" label={t('transactions.searchLabel')} defaultValue={d.search} />
        <FilterSelect
          id="transaction-status"
          name="status"
          label={t('transactions.statusLabel')}
          value={d.status}
          options={FILTERS.map((f) => ({ value: f, label: t(`transactions.filters.${f}`) }))}
        />
      </AdminFilters>
      <OpenProposals proposals={d.proposals} lng={lng} />
      <AdminResults
        d={d}
        perPage={PER_PAGE}
        href={(p) => listHref(d.search, d.status, p)}
        count={t('transactions.count', { count: d.total, n: formatNumber(d.total, lng) })}
        empty={t('transactions.empty')}
      >
        {(items) => (
          <AdminCards
            items={items}
            card={(x) => <TransactionCard x={x} lng={lng} proposal={d.proposals.find((p) => p.transaction_id === x.id)} />}
          />
        )}
      </AdminResults>
      {d.held ? <StaffHeld held={d.held} lng={lng} /> : null}
    </section>
  );
}

/** The reason field of a proposal or a decision: 1–500 characters, required. */
function ReasonField({ label }: { label: string }) {
  return <Field label={label} name="reason" required maxLength={REASON_MAX} autoComplete="off" />;
}

/**
 * Proposals to approve a payment by hand that wait for a second staff member (docs/rules/payments.md#1-who-may-do-what):
 * who proposed and why, with Approve and Reject, each with its reason, as plain form posts.
 */
function OpenProposals({ proposals, lng }: { proposals: Proposal[]; lng: Language }) {
  const { t } = useTranslation('admin');
  const nav = useNavigation();
  const busy = nav.state !== 'idle' && nav.formMethod?.toUpperCase() === 'POST';
  return (
    <section className="admin-proposals" aria-labelledby="open-proposals">
      <h2 id="open-proposals">{t('transactions.approval.openTitle')}</h2>
      {proposals.length === 0 ? <p className="muted">{t('transactions.approval.none')}</p> : null}
      {proposals.map((p) => (
        <article key={p.id} className="card admin-card" aria-labelledby={`proposal-${p.id}`}>
          <header className="admin-card__head">
            <h3 id={`proposal-${p.id}`}>
              {p.purchase.player.name}
              <span className="admin-card__alt">{lotteryName(p.purchase.lottery, lng)}</span>
            </h3>
            {p.lapsed ? <span className="badge badge--muted">{t('transactions.approval.lapsed')}</span> : null}
          </header>
          <dl className="admin-card__facts">
            <Fact label={t('transactions.ticket')} className="nowrap">
              {p.purchase.ticket}
            </Fact>
            <Fact label={t('transactions.trxId')} className="admin-card__wrap">
              {p.trx_id}
            </Fact>
            <Fact label={t('transactions.amount')}>
              <Amount value={p.purchase.amount} lng={lng} />
            </Fact>
            <Fact label={t('transactions.approval.proposedBy')}>
              {p.proposed_by.name} · <DateTime value={p.proposed_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
            </Fact>
            <Fact label={t('transactions.approval.reason')} className="admin-card__wrap">
              {p.reason}
            </Fact>
          </dl>
          <Form
            method="post"
            className="admin-card__actions"
            aria-label={t('transactions.approval.decideFor', { name: p.purchase.player.name })}
          >
            <CsrfField />
            <input type="hidden" name="proposal" value={p.id} />
            <ReasonField label={t('transactions.approval.decisionReason')} />
            <button type="submit" name="intent" value="approve" className="btn btn-primary btn-sm" disabled={busy || p.lapsed}>
              {t('transactions.approval.approve')}
            </button>
            <button type="submit" name="intent" value="reject" className="btn btn-danger btn-sm" disabled={busy}>
              {t('transactions.approval.reject')}
            </button>
          </Form>
        </article>
      ))}
    </section>
  );
}

/** A superuser's list of the tickets staff accounts hold (staff do not play: these were bought before). */
function StaffHeld({ held, lng }: { held: { items: Held[]; total: number }; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-staff-held" aria-labelledby="staff-held">
      <h2 id="staff-held">{t('transactions.staffHeld.title')}</h2>
      <p className="muted">{t('transactions.staffHeld.lead', { n: formatNumber(held.total, lng), count: held.total })}</p>
      {held.items.length ? (
        <ul className="admin-staff-held__list">
          {held.items.map((h) => (
            <li key={h.id}>
              <span className="nowrap">{h.ticket}</span> · {h.holder.name} · {lotteryName(h.lottery, lng)} ·{' '}
              <span className={`badge badge--${h.status}`}>{t(`common:ticketStates.${ticketState(h)}`)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function TransactionCard({ x, lng, proposal }: { x: Row; lng: Language; proposal: Proposal | undefined }) {
  const { t } = useTranslation('admin');
  const nav = useNavigation();
  // Every action button waits while a change is on its way (the list is then loaded again).
  const busy = nav.state !== 'idle' && nav.formMethod?.toUpperCase() === 'POST';
  const mine = busy && nav.formData?.get('id') === String(x.id);
  const invalid = t('common:errors.invalidDate');
  const na = t('common.notAvailable');
  const priceDiffers = x.amount !== x.lottery.ticket_price;
  // After the draw only an unpaid ticket may still be rejected; an activated generated ticket keeps its status
  // (docs/rules/lotteries-and-sales.md#8-transaction-states), and so does a ticket bKash confirmed
  // (docs/rules/payments.md#1-who-may-do-what); the API says why for anything else.
  // Approval needs the TrxID the payment is checked against: without one, a pending card offers Reject only. With one,
  // it offers a proposal to approve, with the reason; an open proposal is decided at the top of the page.
  const needsTrxId = x.status === 'pending' && x.trx_id === null && x.transaction_type !== 'activation';
  const proposable =
    x.status === 'pending' && x.transaction_type === 'payment' && x.trx_id !== null && !x.lottery.is_result_published && !proposal;
  const actions =
    x.transaction_type === 'activation' ||
    (x.status === 'success' && (x.checkout?.state === 'completed' || x.bkash_check?.state === 'confirmed'))
      ? []
      : (x.lottery.is_result_published || needsTrxId) && x.status === 'pending'
        ? ACTIONS.pending.filter((a) => a.to === 'failed')
        : ACTIONS[x.status];
  const heading = `transaction-${x.id}`;
  return (
    <article className="card admin-card" aria-labelledby={heading}>
      <header className="admin-card__head">
        <h2 id={heading}>
          {x.user.name}
          <span className="admin-card__alt">{lotteryName(x.lottery, lng)}</span>
        </h2>
        <div className="admin-card__badges">
          <span className={`badge badge--${x.status}`}>{t(`common:ticketStates.${ticketState(x)}`)}</span>
          {x.transaction_type === 'activation' ? <span className="badge badge--muted">{t('transactions.activation')}</span> : null}
          {x.checkout ? <span className="badge badge--muted">{t('transactions.checkout')}</span> : null}
          {x.statement ? <span className="badge badge--muted">{t('transactions.sendMoney')}</span> : null}
          {x.lottery.is_result_published ? <span className="badge badge--muted">{t('transactions.drawn')}</span> : null}
        </div>
      </header>
      <dl className="admin-card__facts">
        <Fact label={t('transactions.phone')}>{x.user.phone ?? na}</Fact>
        <Fact label={t('transactions.email')} className="admin-card__wrap">
          {x.user.email ?? na}
        </Fact>
        <Fact label={t('transactions.ticket')} className="nowrap">
          {x.ticket}
        </Fact>
        <Fact label={t('transactions.amount')}>
          <Amount value={x.amount} lng={lng} />
          {priceDiffers ? (
            <span className="admin-flag">{t('transactions.priceDiffers', { price: formatTaka(x.lottery.ticket_price, lng) })}</span>
          ) : null}
          {x.run_paid ? (
            // A run's first entry: its one payment is the whole run's (docs/rules/games.md#6-consecutive-draws-and-play-slips).
            <span className="admin-flag">
              {t('transactions.runPaid', {
                draws: formatNumber(x.run_paid.draws, lng),
                lines: formatNumber(x.run_paid.lines, lng),
                amount: formatTaka(x.run_paid.amount, lng),
              })}
            </span>
          ) : null}
        </Fact>
        <Fact label={t('transactions.trxId')}>
          {x.trx_id ? (
            <span className="admin-card__wrap">{x.trx_id}</span>
          ) : (
            <span className="admin-flag">{t('transactions.noTrxId')}</span>
          )}
        </Fact>
        <Fact label={t('transactions.bkashNumber')}>{x.payment_number || na}</Fact>
        {x.checkout ? (
          <Fact label={t('transactions.checkoutState')}>
            {t(`transactions.checkoutStates.${x.checkout.state}`)}
            {x.checkout.refund_trx_id ? (
              <span className="admin-card__wrap"> · {t('transactions.refundTrxId', { trx: x.checkout.refund_trx_id })}</span>
            ) : null}
            <span className="admin-card__wrap muted"> · {t('transactions.paymentId', { id: x.checkout.payment_id })}</span>
          </Fact>
        ) : null}
        {x.statement ? (
          <Fact label={t('transactions.statement')}>
            {x.statement === 'flagged' || x.statement === 'review' ? (
              <span className="admin-flag">{t(`transactions.statementStates.${x.statement}`)}</span>
            ) : (
              t(`transactions.statementStates.${x.statement}`)
            )}
          </Fact>
        ) : null}
        {x.bkash_check ? <BkashCheck check={x.bkash_check} lng={lng} /> : null}
        <Fact label={t('transactions.date')}>
          <DateTime value={x.created_at} lng={lng} withTime invalid={invalid} />
        </Fact>
      </dl>
      {proposal ? <p className="muted">{t('transactions.approval.proposedNote', { name: proposal.proposed_by.name })}</p> : null}
      {proposable ? (
        <Form method="post" className="admin-card__actions" aria-label={t('transactions.approval.proposeFor', { name: x.user.name })}>
          <CsrfField />
          <input type="hidden" name="id" value={x.id} />
          <ReasonField label={t('transactions.approval.proposeReason')} />
          <button type="submit" name="intent" value="propose" className="btn btn-primary btn-sm" disabled={busy}>
            {t('transactions.approval.propose')}
          </button>
        </Form>
      ) : null}
      {actions.length ? (
        <Form method="post" className="admin-card__actions" aria-label={t('transactions.actionsFor', { name: x.user.name })}>
          <CsrfField />
          <input type="hidden" name="id" value={x.id} />
          {needsTrxId && !x.lottery.is_result_published ? <p className="muted">{t('transactions.approveNeedsTrxId')}</p> : null}
          {actions.map((a) => (
            <button
              key={a.to}
              type="submit"
              name="status"
              value={a.to}
              className={`btn btn-${a.kind} btn-sm`}
              disabled={busy}
              aria-busy={mine && nav.formData?.get('status') === a.to ? true : undefined}
            >
              {t(`transactions.actions.${a.label}`)}
            </button>
          ))}
        </Form>
      ) : null}
    </article>
  );
}

type Check = NonNullable<Row['bkash_check']>;

/**
 * What bKash answered about the TrxID the player typed (docs/rules/payments.md#9-send-money-confirmed-by-bkash): the
 * check's state and reason, and bKash's own words, so that staff see why a purchase was or was not confirmed.
 */
function BkashCheck({ check, lng }: { check: Check; lng: Language }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  const a = check.answer;
  const flagged = check.state === 'refused' || check.state === 'left';
  const state = t(`transactions.bkashCheckStates.${check.state}`);
  const reason = check.reason ? t(`transactions.bkashCheckReasons.${check.reason}`, { defaultValue: check.reason }) : null;
  return (
    <Fact label={t('transactions.bkashCheck')}>
      {flagged ? <span className="admin-flag">{state}</span> : state}
      {reason ? <span className="admin-card__wrap"> · {reason}</span> : null}
      {a ? (
        <span className="admin-card__wrap muted">
          {' · '}
          {t('transactions.bkashAnswer', { status: a.transactionStatus, from: a.customerMsisdn ?? na, to: a.receiver ?? na })}
          {' · '}
          {a.amount === null ? na : <Amount value={a.amount} lng={lng} />}
          {' · '}
          {a.completedTime ? <DateTime value={a.completedTime} lng={lng} withTime invalid={t('common:errors.invalidDate')} /> : na}
        </span>
      ) : null}
    </Fact>
  );
}
