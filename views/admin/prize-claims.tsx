import { Form, Link, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { CLAIM_STATUSES, PAYOUT_METHODS, type ClaimStatus, type PayoutMethod, type StaffClaim } from '../../shared/claims/schemas.ts';
import { payoutRefusalReason } from '../../shared/claims/payout.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { adminPaths } from '../../shared/paths.ts';
import { IdParams } from '../../shared/lotteries/schemas.ts';
import { apiOf } from '../context.ts';
import { BkashBalanceCards } from './bkash-balance.tsx';
import { action as formAction } from '../components/action.ts';
import { userOf } from '../guards.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import {
  AdminFilters,
  adminHref,
  AdminPageHead,
  AdminResults,
  AdminTable,
  FilterInput,
  FilterSelect,
  listData,
  listPlace,
  oneOf,
  Fact,
} from './list.tsx';

type Row = z.output<typeof StaffClaim>;
type Result = FormResult & { done?: number };
export const PER_PAGE = 20;

type Filters = { search: string; status: ClaimStatus | null; method: PayoutMethod | null };

const listHref = (f: Filters, page: number): string =>
  adminHref(adminPaths.prizeClaims, { search: f.search, status: f.status, payment_method: f.method }, page);

/**
 * The list's address with `?approve={id}` or `?pay={id}`: the confirmation of a second approval, or of a payout by
 * bKash (a dialog; a page of its own without JavaScript).
 */
const confirmHref = (here: string, step: 'approve' | 'pay', id: number): string => `${here}${here.includes('?') ? '&' : '?'}${step}=${id}`;

/** A claim's id from the address's `name` parameter, or null. */
const idParam = (url: URL, name: string): number | null =>
  Number(/^[1-9]\d{0,14}$/.exec(url.searchParams.get(name) ?? '')?.[0] ?? 0) || null;

/**
 * /admin/prize-claims: every claim, searched, filtered and paged by the server, the summary over all of them, and
 * the transfer actions (docs/rules/lotteries-and-sales.md#11-prize-claims).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const f: Filters = {
    search,
    status: oneOf(CLAIM_STATUSES, url.searchParams.get('status')),
    method: oneOf(PAYOUT_METHODS, url.searchParams.get('payment_method')),
  };
  const approve = idParam(url, 'approve');
  const pay = idParam(url, 'pay');
  const api = apiOf(context);
  const [r, summary, balance] = await Promise.all([
    api.call(contract.staffClaims, {
      query: {
        search: f.search || undefined,
        status: f.status ?? undefined,
        payment_method: f.method ?? undefined,
        limit,
        offset,
      },
    }),
    api.call(contract.claimsSummary),
    api.call(contract.bkashBalance),
  ]);
  // Who is looking: the page offers him only what the four-eyes rules let him do (the API decides).
  const me = userOf(context).user_id;
  return {
    f,
    here: listHref(f, page),
    summary: summary.ok ? summary.data : null,
    balance: balance.ok ? balance.data : null,
    approve,
    pay,
    me,
    ...listData(r, page),
  };
}

/**
 * A claim's button: which claim (the id of the API's address) and which step; a transfer by hand's reference, a lost
 * payout's TrxID (the API checks them: TransferBody, SettlePayoutBody).
 */
const ClaimStepForm = z.object({
  claim: IdParams.shape.id,
  intent: z.enum(['approve', 'complete', 'fail', 'pay', 'settle', 'not_sent']),
  reference: z.string().max(200).optional(),
  trx_id: z.string().max(200).optional(),
});
type Step = z.output<typeof ClaimStepForm>;

/** Each step's call of the API. */
function callStep(api: Parameters<Parameters<typeof formAction>[0]['call']>[0], f: Step) {
  const params = { id: String(f.claim) };
  switch (f.intent) {
    case 'approve':
      return api.call(contract.approveTransfer, { params });
    case 'complete':
      return api.call(contract.completeTransfer, { params, body: { reference: f.reference ?? '' } });
    case 'fail':
      return api.call(contract.failTransfer, { params });
    case 'pay':
      return api.call(contract.payNow, { params });
    case 'settle':
      return api.call(contract.settlePayout, { params, body: { trx_id: f.trx_id ?? '' } });
    case 'not_sent':
      return api.call(contract.payoutNotSent, { params });
  }
}

const DONE: Record<Step['intent'], string> = {
  approve: 'admin:claims.approved',
  complete: 'admin:claims.updated',
  fail: 'admin:claims.updated',
  pay: 'admin:claims.payDone',
  settle: 'admin:claims.settled',
  not_sent: 'admin:claims.settled',
};

/** Approve, complete, fail, pay by bKash or settle a payout: a plain form post per claim (approval from its confirmation). */
export const action = formAction({
  schema: ClaimStepForm,
  call: callStep,
  fields: [],
  fix: key('admin:claims.failed'),
  failed: 'admin:claims.failed',
  done: (c, { input }) => ({ done: c.id, notice: key(DONE[input.intent]) }) satisfies Result,
});

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const filtered = Boolean(d.f.search || d.f.status || d.f.method);
  // Once approved (the action answered), the confirmation is not shown again.
  const confirming =
    d.approve !== null && result?.done !== d.approve ? d.items?.find((c) => c.id === d.approve && canApprove(c, d.me)) : undefined;
  // Likewise the payout's: once pressed, the claim shows what bKash answered.
  const paying = d.pay !== null && result?.done !== d.pay ? d.items?.find((c) => c.id === d.pay && canPayNow(c, d.me)) : undefined;
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('claims.title') })} description={t('claims.lead')} />
      {result?.notice ? <Notice text={msg(t, result.notice) ?? ''} /> : null}
      {result?.formError ? <Notice kind="error" text={msg(t, result.formError) ?? ''} /> : null}
      <AdminPageHead title={t('claims.title')} lead={t('claims.lead')}>
        <Link className="btn btn-ghost" to={d.here} reloadDocument>
          {t('claims.refresh')}
        </Link>
      </AdminPageHead>
      {d.summary ? (
        <ul className="admin-stats">
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.totalClaims')}</span>
            <span className="admin-stat__value">{formatNumber(d.summary.total_claims, lng)}</span>
          </li>
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.totalAmount')}</span>
            <span className="admin-stat__value">
              <Amount value={d.summary.total_prize_amount} lng={lng} />
            </span>
          </li>
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.pendingTransfers')}</span>
            <span className="admin-stat__value">{formatNumber(d.summary.pending_transfers, lng)}</span>
          </li>
        </ul>
      ) : null}
      {d.balance ? <BkashBalanceCards b={d.balance} lng={lng} /> : null}
      <details className="admin-filter-panel" open={filtered}>
        <summary className="btn btn-ghost">{t('common.filter')}</summary>
        <AdminFilters
          extra={
            <Link className="btn btn-ghost" to={adminPaths.prizeClaims}>
              {t('claims.clearFilters')}
            </Link>
          }
        >
          <FilterInput id="claim-search" label={t('claims.searchLabel')} defaultValue={d.f.search} />
          <FilterSelect
            id="claim-status"
            name="status"
            label={t('claims.status')}
            value={d.f.status ?? ''}
            any={t('claims.all')}
            options={CLAIM_STATUSES.map((s) => ({ value: s, label: t(`common:claimStates.${s}`) }))}
          />
          <FilterSelect
            id="claim-method"
            name="payment_method"
            label={t('claims.method')}
            value={d.f.method ?? ''}
            any={t('claims.all')}
            options={PAYOUT_METHODS.map((m) => ({ value: m, label: t(`claims.methods.${m}`) }))}
          />
        </AdminFilters>
      </details>
      <AdminResults d={d} perPage={PER_PAGE} href={(p) => listHref(d.f, p)} empty={t('claims.empty')}>
        {(items) => (
          <AdminTable
            label={t('claims.title')}
            columns={[t('claims.player'), t('claims.prize'), t('claims.payTo'), t('claims.status'), t('claims.date'), t('claims.transfer')]}
          >
            {items.map((c) => (
              <ClaimRow key={c.id} c={c} lng={lng} me={d.me} here={d.here} />
            ))}
          </AdminTable>
        )}
      </AdminResults>
      {confirming ? <ApproveDialog c={confirming} here={d.here} lng={lng} /> : null}
      {paying ? <PayDialog c={paying} here={d.here} lng={lng} /> : null}
    </section>
  );
}

/** Whether this staff member may approve the transfer now (shared/claims/payout.ts; the API checks again). */
const canApprove = (c: Row, me: number): boolean =>
  c.status === 'payment_info_submitted' &&
  c.approval_required &&
  !c.approved_by &&
  !c.held_until &&
  c.contact_changed_by !== me &&
  c.user.id !== me;

/** The claim's try by bKash that is waiting, being sent or without an answer: no other may be sent meanwhile. */
const liveTry = (c: Row) => (c.payout && ['waiting', 'sending', 'unknown'].includes(c.payout.state) ? c.payout : null);

/** Whether this staff member may complete the transfer now (pay by bKash, or record one by hand); the API checks again. */
const mayComplete = (c: Row, me: number): boolean =>
  c.status === 'payment_info_submitted' && !c.held_until && completeBlock(c, me) === null && liveTry(c) === null;

/** Whether this staff member may press Pay now: a bKash wallet's claim he may complete. */
const canPayNow = (c: Row, me: number): boolean => c.payment_method === 'bkash' && mayComplete(c, me);

/** Why this staff member may not complete the transfer now, as a text key; null when he may. */
function completeBlock(c: Row, me: number): string | null {
  if (c.held_until) return null; // shown as the hold itself
  if (c.user.id === me) return 'claims.ownPrize';
  if (c.contact_changed_by === me) return 'claims.youChanged';
  if (c.approval_required && !c.approved_by) return 'claims.waitsForApproval';
  if (c.approval_required && c.approved_by?.id === me) return 'claims.youApproved';
  return null;
}

/** What is paid, to which account: the facts a confirmation shows. */
function TransferFacts({ c, lng }: { c: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <dl className="admin-card__facts">
      <Fact label={t('claims.player')}>{c.user.name}</Fact>
      <Fact label={t('claims.prize')}>
        <Amount value={c.prize.prize_money} lng={lng} />
      </Fact>
      <Fact label={t('claims.payTo')}>
        {c.payment_method ? `${t(`claims.methods.${c.payment_method}`)}: ` : null}
        <span className="nowrap">{toDigits(c.account_number, lng)}</span>, {c.account_holder_name}
      </Fact>
    </dl>
  );
}

/** The confirmation of a second approval. */
function ApproveDialog({ c, here, lng }: { c: Row; here: string; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <ConfirmDialog
      titleId="approve-transfer-title"
      title={t('claims.approveTitle')}
      action={here}
      cancelHref={here}
      hidden={{ claim: c.id }}
      intent="approve"
      confirm={t('claims.approveConfirm')}
      cancel={t('claims.cancel')}
    >
      <p>{t('claims.approveText')}</p>
      <TransferFacts c={c} lng={lng} />
    </ConfirmDialog>
  );
}

/** The confirmation of a payout by bKash: money that leaves at once and is not taken back. */
function PayDialog({ c, here, lng }: { c: Row; here: string; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <ConfirmDialog
      titleId="pay-now-title"
      title={t('claims.payTitle')}
      action={here}
      cancelHref={here}
      hidden={{ claim: c.id }}
      intent="pay"
      confirm={t('claims.payConfirm')}
      cancel={t('claims.cancel')}
    >
      <p>{t('claims.payText')}</p>
      <TransferFacts c={c} lng={lng} />
    </ConfirmDialog>
  );
}

function ClaimRow({ c, lng, me, here }: { c: Row; lng: Language; me: number; here: string }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  const blocked = completeBlock(c, me);
  return (
    <tr>
      <td>
        <strong>{c.user.name}</strong>
        <br />
        {c.user.phone ? toDigits(c.user.phone, lng) : na}
        {c.user.email ? (
          <>
            <br />
            <span className="admin-card__wrap">{c.user.email}</span>
          </>
        ) : null}
      </td>
      <td>
        {lotteryName(c.prize.lottery, lng)}
        <br />
        <span className="nowrap">{toDigits(c.prize.ticket, lng)}</span>
        <br />
        <Amount value={c.prize.prize_money} lng={lng} />
      </td>
      <td>
        {c.payment_method ? (
          <>
            {t(`claims.methods.${c.payment_method}`)}: <span className="nowrap">{toDigits(c.account_number, lng)}</span>
            <br />
            {c.account_holder_name}
            {c.payment_method === 'bank' ? (
              <>
                <br />
                {c.bank_name}, {c.branch_name}
              </>
            ) : null}
          </>
        ) : (
          na
        )}
      </td>
      <td>
        <span className={`badge badge--claim-${c.status}`}>{t(`common:claimStates.${c.status}`)}</span>
      </td>
      <td>
        <DateTime value={c.submitted_at ?? c.created_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
      </td>
      <td>
        {c.status === 'payment_info_submitted' || c.status === 'transfer_completed' ? <Approval c={c} lng={lng} /> : null}
        {c.payout ? <PayoutState c={c} lng={lng} /> : null}
        {c.status === 'payment_info_submitted' ? <Steps c={c} me={me} here={here} blocked={blocked} /> : null}
        {c.status === 'transfer_completed' ? (
          <span className="admin-done">
            {c.transfer_reference && !c.payout?.trx_id ? t('claims.paid', { reference: c.transfer_reference }) : t('claims.done')}
          </span>
        ) : c.status !== 'payment_info_submitted' && !c.payout ? (
          <span className="muted">{na}</span>
        ) : null}
      </td>
    </tr>
  );
}

/** What staff may do with a claim whose payout details are in: approve, pay by bKash or record a transfer by hand, fail. */
function Steps({ c, me, here, blocked }: { c: Row; me: number; here: string; blocked: string | null }) {
  const { t } = useTranslation('admin');
  const live = liveTry(c);
  const mayPay = mayComplete(c, me);
  return (
    <>
      {blocked ? <span className="admin-flag admin-flag--info">{t(blocked)}</span> : null}
      {live?.state === 'unknown' ? <Settle c={c} me={me} /> : null}
      <Form method="post" className="admin-row-actions">
        <CsrfField />
        <input type="hidden" name="claim" value={c.id} />
        {canApprove(c, me) ? (
          <Link className="btn btn-accent btn-sm" to={confirmHref(here, 'approve', c.id)} preventScrollReset>
            {t('claims.approve')}
          </Link>
        ) : null}
        {canPayNow(c, me) ? (
          <Link className="btn btn-primary btn-sm" to={confirmHref(here, 'pay', c.id)} preventScrollReset>
            {t('claims.payNow')}
          </Link>
        ) : null}
        {live === null || live.state === 'waiting' ? (
          <SubmitButton name="intent" value="fail" className="btn btn-ghost btn-sm">
            {t('claims.markFailed')}
          </SubmitButton>
        ) : null}
      </Form>
      {mayPay && c.payment_method !== 'bkash' ? (
        <Form method="post" className="admin-row-form">
          <CsrfField />
          <input type="hidden" name="claim" value={c.id} />
          <label className="field">
            <span className="field__label">{t('claims.referenceLabel')}</span>
            <input name="reference" required maxLength={40} autoComplete="off" aria-describedby={`ref-hint-${c.id}`} />
            <span className="field__hint" id={`ref-hint-${c.id}`}>
              {t('claims.referenceHint')}
            </span>
          </label>
          <SubmitButton name="intent" value="complete" className="btn btn-primary btn-sm">
            {t('claims.completeByHand')}
          </SubmitButton>
        </Form>
      ) : null}
    </>
  );
}

/** A payout whose answer was lost: the TrxID bKash's merchant portal shows, or (another staff member) "not sent". */
function Settle({ c, me }: { c: Row; me: number }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <SettleForm c={c} />
      {c.payout && c.payout.pressed_by.id !== me ? (
        <Form method="post" className="admin-row-actions">
          <CsrfField />
          <input type="hidden" name="claim" value={c.id} />
          <SubmitButton name="intent" value="not_sent" className="btn btn-ghost btn-sm">
            {t('claims.notSent')}
          </SubmitButton>
        </Form>
      ) : null}
    </>
  );
}

function SettleForm({ c }: { c: Row }) {
  const { t } = useTranslation('admin');
  return (
    <Form method="post" className="admin-row-form">
      <CsrfField />
      <input type="hidden" name="claim" value={c.id} />
      <label className="field">
        <span className="field__label">{t('claims.settleLabel')}</span>
        <input name="trx_id" required maxLength={20} autoComplete="off" autoCapitalize="characters" spellCheck={false} />
      </label>
      <SubmitButton name="intent" value="settle" className="btn btn-primary btn-sm">
        {t('claims.settle')}
      </SubmitButton>
    </Form>
  );
}

/** The latest payout by bKash: its state, TrxID or bKash's reason, and who pressed Pay now. */
function PayoutState({ c, lng }: { c: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  const p = c.payout;
  if (!p) return null;
  const why = p.code ? t(`claims.refusal.${payoutRefusalReason(p.code)}`, { code: p.code }) : '';
  const flag = p.state === 'unknown' || p.state === 'waiting' ? 'admin-flag' : p.state === 'completed' ? 'admin-done' : 'admin-approval';
  return (
    <span className="admin-payout">
      <span className={flag}>{t(`claims.payout.${p.state}`, { invoice: p.invoice, trx: p.trx_id ?? '', why })}</span>
      <span className="muted">
        {t('claims.pressedBy', { name: p.pressed_by.name })}{' '}
        <DateTime value={p.created_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
      </span>
    </span>
  );
}

/** The hold and the second approval of a claim, as staff need to see them before paying. */
function Approval({ c, lng }: { c: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  const invalid = t('common:errors.invalidDate');
  return (
    <>
      {c.held_until && c.status === 'payment_info_submitted' ? (
        <span className="admin-flag">
          {t('claims.heldUntil')} <DateTime value={c.held_until} lng={lng} withTime invalid={invalid} />
        </span>
      ) : null}
      {c.approved_by ? (
        <span className="admin-approval">
          {t('claims.approvedBy', { name: c.approved_by.name })}
          {c.approved_at ? (
            <>
              {' '}
              <DateTime value={c.approved_at} lng={lng} withTime invalid={invalid} />
            </>
          ) : null}
        </span>
      ) : c.approval_required && c.status === 'payment_info_submitted' ? (
        <span className="admin-approval admin-approval--needed">{t('claims.needsApproval')}</span>
      ) : null}
    </>
  );
}
