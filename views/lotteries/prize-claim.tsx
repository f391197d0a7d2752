import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { canClaim, ClaimBody, ClaimDetails, PAYOUT_METHODS, type WinningTicket } from '../../shared/claims/schemas.ts';
import { toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { msg } from '../components/messages.ts';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { Resend } from '../components/resend.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import { TicketBalls } from './balls.tsx';

type Winning = z.output<typeof WinningTicket>;
/** `sentAt`: when this page's action sent the claim code (the code field shows from then on). */
type Result = FormResult & { sentAt?: number };

/** The fields of the payout details, as the API names them. */
const DETAIL_FIELDS = ['payment_method', 'account_number', 'account_holder_name', 'bank_name', 'branch_name', 'otp'] as const;

/**
 * /user/prize-claim/{prizeId} (player group): the payout details of one of the player's own prizes, confirmed with a
 * claim code (docs/rules/lotteries-and-sales.md#11-prize-claims). Another player's prize is "not found", as the API
 * says; without a prize id the player goes to My Lotteries.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = idOf(params.prizeId);
  if (!id) throw redirect(paths.myLotteries);
  const r = await apiOf(context).call(contract.myWinningTicket, { params: { id } });
  if (r.ok) return { w: r.data, problem: null };
  if (r.error.code === 'not_found') return data({ w: null, problem: null }, { status: 404 });
  return data({ w: null, problem: errorText(r.error, '') || null }, { status: pageStatus(r.status) });
}

/**
 * Two steps in one form: "Send code" checks the details and sends the claim code (again after the wait: Resend);
 * "Submit claim" sends the details with the code. Each step works as a plain form post.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = idOf(params.prizeId);
  if (!id) throw redirect(paths.myLotteries);
  const form = await request.formData();
  const intent = field(form, 'intent');
  if (intent === 'send' || intent === 'resend') {
    // The details are checked first; the code is sent for the prize (the details travel with the claim).
    const s = await submit(form, context, {
      schema: ClaimDetails,
      call: (api) => api.call(contract.sendClaimCode, { body: { prize_id: id } }),
      fields: [],
      failed: 'lottery:claim.errors.sendFailed',
    });
    if (!s.ok) return s.reply;
    return { notice: s.data.detail, sentAt: Date.now(), values: s.values } satisfies Result;
  }
  // The code field is on the page: whatever went wrong, the player stays on the code step.
  const sentAt = Number(field(form, 'sent_at')) || Date.now();
  const s = await submit(form, context, {
    schema: ClaimBody,
    secret: ['otp'],
    call: (api, body) => api.call(contract.submitClaim, { body }),
    fields: DETAIL_FIELDS,
    failed: 'lottery:claim.errors.submitFailed',
    extra: { sentAt } satisfies Result,
  });
  if (!s.ok) return s.reply;
  return redirect(withQuery(paths.myLotteries, { notice: 'claimed' }), 303);
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const w = d.w;
  const title = t('claim.title');
  return (
    <section className="section">
      <div className="container narrow prize-claim">
        <Head title={t('common:title', { page: title })} description={t('claim.lead')} />
        <p className="back-link">
          <Link to={paths.myLotteries}>{t('claim.back')}</Link>
        </p>
        <h1>{title}</h1>
        {!w ? (
          <Alert kind="error">{d.problem ? t('common:errors.error', { message: d.problem }) : t('claim.notFound')}</Alert>
        ) : (
          <>
            <div className="card prize-claim__prize">
              <p className="prize-claim__lottery">{lotteryName(w.lottery, lng)}</p>
              <TicketBalls ticket={w.ticket} lng={lng} label={t('play.ticket')} />
              <dl className="summary">
                <div>
                  <dt>{t('claim.prize')}</dt>
                  <dd className="summary__amount">
                    <Amount value={w.prize.prize_money} lng={lng} />
                  </dd>
                </div>
                <div>
                  <dt>{t('claim.deadline')}</dt>
                  <dd>
                    <DateTime value={w.claim_deadline} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                  </dd>
                </div>
              </dl>
            </div>
            <ClaimState w={w} lng={lng} />
            {w.can_claim ? <ClaimForm w={w} result={result} lng={lng} /> : null}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * Where the claim stands: details submitted, transfer done or failed, the claim period over, or claims held after a
 * change of the player's phone, e-mail or password (docs/rules/lotteries-and-sales.md#11-prize-claims).
 */
function ClaimState({ w, lng }: { w: Winning; lng: Language }) {
  const { t } = useTranslation('lottery');
  const c = w.claim;
  const method = c?.payment_method ? t(`claim.methods.${c.payment_method}`) : '';
  const account = c ? toDigits(c.account_number, lng) : '';
  // The hold matters only while the prize could be claimed otherwise: within the claim period, no details pending.
  const held = w.held_until !== null && canClaim(c?.status ?? null, w.claim_deadline) ? w.held_until : null;
  const heldNotice = held ? (
    <Alert kind="info">
      {withElements((v) => t('claim.state.held', v), {
        date: <DateTime value={held} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
      })}
    </Alert>
  ) : null;
  if (c?.status === 'transfer_completed') {
    // What proves it: bKash's TrxID of a payout by bKash, or the reference of a transfer by hand.
    const which = c.transfer_reference === null ? 'completed' : c.payment_method === 'bkash' ? 'completedBkash' : 'completedRef';
    return <Alert kind="success">{t(`claim.state.${which}`, { method, account, reference: c.transfer_reference ?? '' })}</Alert>;
  }
  if (c?.status === 'payment_info_submitted') return <Alert kind="info">{t('claim.state.submitted', { method, account })}</Alert>;
  if (c?.status === 'transfer_failed')
    return (
      <>
        <Alert kind="error">{t('claim.state.failed')}</Alert>
        {heldNotice}
      </>
    );
  if (heldNotice) return heldNotice;
  if (!w.can_claim)
    return (
      <Alert kind="error">
        {withElements((v) => t('claim.state.over', v), {
          date: <DateTime value={w.claim_deadline} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
        })}
      </Alert>
    );
  return null;
}

function ClaimForm({ w, result, lng }: { w: Winning; result: Result | undefined; lng: Language }) {
  const { t } = useTranslation('lottery');
  const e = result?.errors ?? {};
  const values = result?.values ?? {};
  // After a failed transfer the details sent before are offered again; a started claim (code sent, status pending) shows the code step.
  const prior = w.claim;
  const value = (name: (typeof DETAIL_FIELDS)[number]) => values[name] ?? (prior ? String(prior[name as keyof typeof prior] ?? '') : '');
  const method = values.payment_method ?? prior?.payment_method ?? 'bkash';
  const sentAt = result?.sentAt ?? null;
  const codeStep = sentAt !== null || prior?.status === 'pending';
  return (
    <Form method="post" noValidate className="form card claim-form">
      <CsrfField />
      <input type="hidden" name="prize" value={w.prize.id} />
      {sentAt !== null ? <input type="hidden" name="sent_at" value={sentAt} /> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      {result?.notice ? <Notice text={result.notice} /> : null}
      <fieldset className={`pay-methods${e.payment_method ? ' has-error' : ''}`}>
        <legend>{t('claim.method')}</legend>
        {PAYOUT_METHODS.map((m) => (
          <label key={m} className="pay-method">
            <input type="radio" name="payment_method" value={m} defaultChecked={m === method} />
            <span className="pay-method__name">{t(`claim.methods.${m}`)}</span>
          </label>
        ))}
        {e.payment_method ? <p className="field__error">{msg(t, e.payment_method)}</p> : null}
      </fieldset>
      <Field
        label={t('claim.accountNumber')}
        name="account_number"
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        defaultValue={value('account_number')}
        hint={t('claim.accountNumberHint')}
        error={msg(t, e.account_number)}
      />
      <Field
        label={t('claim.holder')}
        name="account_holder_name"
        autoComplete="name"
        maxLength={100}
        defaultValue={value('account_holder_name')}
        error={msg(t, e.account_holder_name)}
      />
      <div className="bank-only">
        <Field
          label={t('claim.bankName')}
          name="bank_name"
          maxLength={100}
          defaultValue={value('bank_name')}
          hint={t('claim.bankOnly')}
          error={msg(t, e.bank_name)}
        />
        <Field
          label={t('claim.branchName')}
          name="branch_name"
          maxLength={100}
          defaultValue={value('branch_name')}
          hint={t('claim.bankOnly')}
          error={msg(t, e.branch_name)}
        />
      </div>
      {codeStep ? (
        <>
          <Field
            label={t('claim.code')}
            name="otp"
            className="otp-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={CODE_RULES.claim.length}
            lang={lng}
            hint={t('claim.codeHint')}
            error={msg(t, e.otp)}
          />
          <SubmitButton name="intent" value="submit">
            {t('claim.submit')}
          </SubmitButton>
          <Resend sentAt={sentAt} waitSec={CODE_RULES.claim.resendAfterSec} />
        </>
      ) : (
        <SubmitButton name="intent" value="send">
          {t('claim.sendCode')}
        </SubmitButton>
      )}
    </Form>
  );
}
