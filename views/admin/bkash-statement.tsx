import { data, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { z } from 'zod';
import { ticketState } from '../../shared/purchases/states.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { IdParams } from '../../shared/lotteries/schemas.ts';
import {
  DiscardBody,
  ResolveBody,
  STATEMENT_DECISIONS,
  type Statement,
  type StatementRowOut,
} from '../../shared/payments/statement-schemas.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import { errorText } from '../../shared/api-types.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, submit } from '../components/action.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Alert, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { userOf } from '../guards.ts';
import { useTranslation } from '../i18n.tsx';
import { AdminCards, adminHref, AdminPageHead, AdminResults, listPlace, oneOf, type ListData, Fact } from './list.tsx';
import { UploadCard } from './bkash-statements.tsx';

type Row = z.output<typeof StatementRowOut>;
type Upload = z.output<typeof Statement>;
export const PER_PAGE = 50;
const FILTERS = ['all', 'review_open', ...STATEMENT_DECISIONS] as const;
type Filter = (typeof FILTERS)[number];
const filterOf = (raw: string | null): Filter => oneOf(FILTERS, raw) ?? 'all';

const hrefOf = (id: number, decision: Filter, page: number): string => adminHref(adminPaths.bkashStatement(id), { decision }, page);
/** The confirmation of a decision on a row: a dialog opened from its own address (a page of its own without JavaScript). */
const resolveHref = (here: string, row: number, intent: 'approve' | 'dismiss'): string =>
  `${here}${here.includes('?') ? '&' : '?'}resolve=${row}&do=${intent}`;
/** The confirmation of confirming or discarding the upload itself (docs/rules/payments.md#84-confirming-or-discarding-an-upload). */
type UploadStep = 'confirm' | 'discard';
const uploadHref = (here: string, step: UploadStep): string => `${here}${here.includes('?') ? '&' : '?'}upload=${step}`;

/**
 * /admin/bkash-statements/{id} (docs/rules/payments.md#84-confirming-or-discarding-an-upload): what one upload did, row by row, in
 * the file's order, filtered by decision; the rows listed for review each with Approve and Dismiss (a confirmation
 * with a note).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // An id that names nothing asks the API all the same: its 404 says so in the caller's language.
  const id = Number(idOf(params.id) ?? 0);
  const { page, limit, offset } = listPlace(url, PER_PAGE);
  const decision = filterOf(url.searchParams.get('decision'));
  const r = await apiOf(context).call(contract.statement, {
    params: { id: String(id || 'x') },
    query: { decision: decision === 'all' ? undefined : decision, limit, offset },
  });
  const resolveId = Number(idOf(url.searchParams.get('resolve')) ?? 0) || null;
  const intent = url.searchParams.get('do') === 'approve' ? ('approve' as const) : ('dismiss' as const);
  const rows: ListData<Row> = r.ok
    ? { items: r.data.rows, total: r.data.total, page, error: null }
    : { items: null, total: 0, page, error: errorText(r.error, '') || null };
  const flash = (['uploaded', 'repeated', 'resolved', 'confirmed', 'discarded'] as const).find((f) => url.searchParams.get(f)) ?? null;
  const step = url.searchParams.get('upload');
  return data(
    {
      id,
      statement: r.ok ? r.data.statement : null,
      rows,
      decision,
      here: hrefOf(id, decision, page),
      resolve: resolveId ? { row: resolveId, intent } : null,
      step: step === 'confirm' || step === 'discard' ? (step as UploadStep) : null,
      me: userOf(context).user_id,
      flash,
    },
    { status: r.ok ? 200 : pageStatus(r.status) },
  );
}

const ResolveForm = z.object({ row: IdParams.shape.id, intent: ResolveBody.shape.action, note: ResolveBody.shape.note });
const DiscardForm = z.object({ reason: DiscardBody.shape.reason });

/** Back to the list from a confirmation, saying what was done. */
const back = (request: Request, done: 'resolved' | 'confirmed' | 'discarded') => {
  const url = new URL(request.url);
  for (const k of ['resolve', 'do', 'upload']) url.searchParams.delete(k);
  url.searchParams.set(done, '1');
  return redirect(url.pathname + url.search, 303);
};

/**
 * A confirmation's form, by its intent: confirming the upload (POST /api/v1/bkash-statements/{id}/confirm/),
 * discarding it with a reason (…/discard/), or a decision on a row (POST /api/v1/bkash-statement-rows/{id}/resolve/);
 * then back to the list.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = idOf(params.id) ?? 'x';
  const intent = form.get('intent');
  if (intent === 'confirm') {
    const s = await submit(form, context, {
      schema: z.object({}),
      call: (api) => api.call(contract.confirmStatement, { params: { id } }),
      failed: 'admin:statements.confirmFailed',
    });
    return s.ok ? back(request, 'confirmed') : s.reply;
  }
  if (intent === 'discard') {
    const s = await submit(form, context, {
      schema: DiscardForm,
      call: (api, { reason }) => api.call(contract.discardStatement, { params: { id }, body: { reason } }),
      fields: ['reason'],
      fix: key('admin:statements.discardFailed'),
      failed: 'admin:statements.discardFailed',
    });
    return s.ok ? back(request, 'discarded') : s.reply;
  }
  const s = await submit(form, context, {
    schema: ResolveForm,
    call: (api, { row, intent, note }) =>
      api.call(contract.resolveStatementRow, { params: { id: String(row) }, body: { action: intent, note } }),
    fields: ['note'],
    fix: key('admin:statements.resolveFailed'),
    failed: 'admin:statements.resolveFailed',
  });
  return s.ok ? back(request, 'resolved') : s.reply;
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const open = d.statement?.status === 'confirmed';
  const confirming =
    d.resolve && open
      ? d.rows.items?.find(
          (r) => r.id === d.resolve?.row && canResolve(r, d.me) && !(d.resolve?.intent === 'approve' && r.proposal?.by.id === d.me),
        )
      : undefined;
  // A proposal's approval confirmed by a second person, or a first approval proposed.
  const confirmsProposal = confirming?.proposal !== null && confirming?.proposal !== undefined;
  const step = d.statement?.status === 'awaiting_confirmation' ? d.step : null;
  const stepShown = step === 'confirm' && d.statement?.uploaded_by.id === d.me ? null : step;
  return (
    <section className="admin-page statements">
      <Head title={t('common:title', { page: t('statements.title') })} description={t('statements.lead')} />
      <p>
        <Link to={adminPaths.bkashStatements}>← {t('statements.back')}</Link>
      </p>
      <AdminPageHead title={t('statements.title')} />
      {d.flash ? <Alert kind={d.flash === 'repeated' ? 'info' : 'success'}>{t(`statements.${d.flash}`)}</Alert> : null}
      {result?.formError && !confirming && !stepShown ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      {d.statement ? <UploadCard x={d.statement} lng={lng} link={false} /> : null}
      {d.statement?.status === 'awaiting_confirmation' ? <Awaiting x={d.statement} me={d.me} here={d.here} /> : null}
      <nav className="statements__filters" aria-label={t('statements.filterLabel')}>
        {FILTERS.map((f) => (
          <Link
            key={f}
            to={hrefOf(d.id, f, 1)}
            className={`btn btn-sm ${f === d.decision ? 'btn-primary' : 'btn-ghost'}`}
            aria-current={f === d.decision ? 'page' : undefined}
          >
            {t(`statements.decisions.${f}`)}
          </Link>
        ))}
      </nav>
      <AdminResults d={d.rows} perPage={PER_PAGE} href={(p) => hrefOf(d.id, d.decision, p)} empty={t('common.pageEmpty')}>
        {(items) => (
          <AdminCards
            items={items}
            card={(x) => (
              <RowCard
                x={x}
                lng={lng}
                me={d.me}
                here={d.here}
                open={open}
                waits={!open && d.statement?.status === 'awaiting_confirmation'}
              />
            )}
          />
        )}
      </AdminResults>
      {stepShown && d.statement ? (
        <ConfirmDialog
          titleId="upload-step-title"
          title={t(stepShown === 'confirm' ? 'statements.confirmUploadTitle' : 'statements.discardUploadTitle')}
          action={uploadHref(d.here, stepShown)}
          cancelHref={d.here}
          hidden={{}}
          intent={stepShown}
          confirm={t(stepShown === 'confirm' ? 'statements.confirmUpload' : 'statements.discardUpload')}
          cancel={t('statements.cancel')}
          danger={stepShown === 'discard'}
          fields={
            stepShown === 'discard' ? (
              <NoteField
                name="reason"
                label={t('statements.reason')}
                error={msg(t, result?.errors?.reason)}
                formError={msg(t, result?.formError)}
                value={result?.values?.reason}
              />
            ) : result?.formError ? (
              <Alert kind="error">{msg(t, result.formError)}</Alert>
            ) : null
          }
        >
          <p>{t(stepShown === 'confirm' ? 'statements.confirmUploadText' : 'statements.discardUploadText')}</p>
          <p className="admin-card__wrap">
            {d.statement.file_name} · {t('statements.uploadedBy', { name: d.statement.uploaded_by.name })} ·{' '}
            {`${t('statements.toApprove')}: ${formatNumber(d.statement.counts.approved, lng)}`}
          </p>
        </ConfirmDialog>
      ) : null}
      {confirming && d.resolve ? (
        <ConfirmDialog
          titleId="resolve-title"
          title={t(
            d.resolve.intent === 'dismiss'
              ? 'statements.dismissTitle'
              : confirmsProposal
                ? 'statements.confirmApprovalTitle'
                : 'statements.approveTitle',
          )}
          action={resolveHref(d.here, confirming.id, d.resolve.intent)}
          cancelHref={d.here}
          hidden={{ row: confirming.id }}
          intent={d.resolve.intent}
          confirm={t(
            d.resolve.intent === 'dismiss' ? 'statements.dismiss' : confirmsProposal ? 'statements.confirmApproval' : 'statements.approve',
          )}
          cancel={t('statements.cancel')}
          danger={d.resolve.intent === 'dismiss'}
          fields={<NoteField error={msg(t, result?.errors?.note)} formError={msg(t, result?.formError)} value={result?.values?.note} />}
        >
          <p>
            {t(
              d.resolve.intent === 'dismiss'
                ? 'statements.dismissText'
                : confirmsProposal
                  ? 'statements.confirmApprovalText'
                  : 'statements.approveText',
            )}
          </p>
          {confirming.proposal ? <Proposal x={confirming.proposal} lng={lng} /> : null}
          <RowFacts x={confirming} lng={lng} />
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/**
 * Whether this staff member may decide the row (the API checks again): of a confirmed upload, open, for review, not
 * his own purchase. His own proposal he may still dismiss, not approve.
 */
const canResolve = (r: Row, me: number): boolean => r.decision === 'review' && r.resolution === null && r.purchase?.user.id !== me;

/** An upload awaiting a second person: the uploader is told another staff member confirms it; anyone else may. */
function Awaiting({ x, me, here }: { x: Upload; me: number; here: string }) {
  const { t } = useTranslation('admin');
  const mine = x.uploaded_by.id === me;
  return (
    <section className="card statements__awaiting" aria-labelledby="statement-awaiting">
      <h2 id="statement-awaiting">{t('statements.statuses.awaiting_confirmation')}</h2>
      <p>{t(mine ? 'statements.awaitingYours' : 'statements.awaitingOther')}</p>
      <div className="admin-card__actions">
        {mine ? null : (
          <Link className="btn btn-primary btn-sm" to={uploadHref(here, 'confirm')} preventScrollReset>
            {t('statements.confirmUpload')}
          </Link>
        )}
        <Link className="btn btn-ghost btn-sm" to={uploadHref(here, 'discard')} preventScrollReset>
          {t('statements.discardUpload')}
        </Link>
      </div>
    </section>
  );
}

/** A staff member's approval of a row, waiting for a second one. */
function Proposal({ x, lng }: { x: NonNullable<Row['proposal']>; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <p className="admin-approval">
      {t('statements.proposedBy', { name: x.by.name })}{' '}
      <DateTime value={x.at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
      <br />
      <span className="admin-card__wrap">“{x.note}”</span>
    </p>
  );
}

function NoteField({
  name = 'note',
  label,
  error,
  formError,
  value,
}: {
  name?: 'note' | 'reason';
  label?: string;
  error?: string | undefined;
  formError?: string | undefined;
  value?: string | undefined;
}) {
  const { t } = useTranslation('admin');
  const id = `resolve-${name}`;
  return (
    <>
      {formError && !error ? <Alert kind="error">{formError}</Alert> : null}
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor={id}>{label ?? t('statements.note')}</label>
        <textarea
          id={id}
          name={name}
          rows={3}
          maxLength={500}
          required
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-hint ${id}-err` : `${id}-hint`}
        />
        <p id={`${id}-hint`} className="field__hint">
          {t('statements.noteHint')}
        </p>
        {error ? (
          <p id={`${id}-err`} className="field__error">
            {error}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** What the row says and which purchase it names. */
function RowFacts({ x, lng }: { x: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  if (x.decision === 'problem')
    return (
      <dl className="admin-card__facts">
        <Fact label={t('statements.rowText')} className="admin-card__wrap statements__raw">
          {x.raw ?? na}
        </Fact>
      </dl>
    );
  return (
    <dl className="admin-card__facts">
      <Fact label={t('statements.trxId')} className="admin-card__wrap">
        {x.trx_id ?? na}
      </Fact>
      <Fact label={t('statements.amount')}>{x.amount !== null ? <Amount value={x.amount} lng={lng} /> : na}</Fact>
      <Fact label={t('statements.sender')} className="nowrap">
        {x.sender ? toDigits(x.sender, lng) : na}
      </Fact>
      <Fact label={t('statements.type')} className="admin-card__wrap">
        {x.type ?? na}
      </Fact>
      <Fact label={t('statements.time')}>
        {x.at ? <DateTime value={x.at} lng={lng} withTime invalid={t('common:errors.invalidDate')} /> : na}
      </Fact>
      <Fact label={t('statements.purchase')} className="admin-card__wrap">
        {x.purchase ? (
          <>
            <Link to={withQuery(adminPaths.transactions, { search: x.purchase.trx_id ?? x.trx_id ?? '' })}>
              {t('statements.purchaseOf', {
                id: formatNumber(x.purchase.id, lng),
                name: x.purchase.user.name,
                ticket: toDigits(x.purchase.ticket, lng),
              })}
            </Link>{' '}
            · {lotteryName(x.purchase.lottery, lng)} · <Amount value={x.purchase.amount} lng={lng} /> ·{' '}
            {t(`common:ticketStates.${ticketState(x.purchase)}`)}
            {x.purchase.payment_number ? <> · {toDigits(x.purchase.payment_number, lng)}</> : null}
          </>
        ) : (
          t('statements.noPurchase')
        )}
      </Fact>
    </dl>
  );
}

const BADGE: Record<Row['decision'], string> = { approve: 'success', review: 'pending', ignore: 'muted', problem: 'failed' };

function RowCard({ x, lng, me, here, open, waits }: { x: Row; lng: Language; me: number; here: string; open: boolean; waits: boolean }) {
  const { t } = useTranslation('admin');
  const heading = `row-${x.id}`;
  const own = open && x.decision === 'review' && x.resolution === null && x.purchase?.user.id === me;
  const proposedByMe = x.proposal !== null && x.proposal.by.id === me;
  return (
    <article className="card admin-card" aria-labelledby={heading}>
      <header className="admin-card__head">
        <h2 id={heading}>
          {t('statements.line', { n: formatNumber(x.line, lng) })}
          {x.reason ? <span className="admin-card__alt">{t(`statements.reasons.${x.reason}`)}</span> : null}
        </h2>
        <div className="admin-card__badges">
          <span className={`badge badge--${waits && x.decision === 'approve' ? 'pending' : BADGE[x.decision]}`}>
            {waits && x.decision === 'approve' ? t('statements.toApprove') : t(`statements.decisions.${x.decision}`)}
          </span>
        </div>
      </header>
      <RowFacts x={x} lng={lng} />
      {x.resolution ? (
        <p className="admin-approval">
          {t(x.resolution.action === 'approved' ? 'statements.approvedBy' : 'statements.dismissedBy', { name: x.resolution.by.name })}{' '}
          <DateTime value={x.resolution.at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
          <br />
          <span className="admin-card__wrap">“{x.resolution.note}”</span>
        </p>
      ) : null}
      {x.proposal && !x.resolution ? <Proposal x={x.proposal} lng={lng} /> : null}
      {own ? <span className="admin-flag admin-flag--info">{t('statements.ownPurchase')}</span> : null}
      {open && proposedByMe && !x.resolution ? <span className="admin-flag admin-flag--info">{t('statements.youProposed')}</span> : null}
      {waits && x.decision === 'review' ? <p className="muted">{t('statements.rowsWait')}</p> : null}
      {open && canResolve(x, me) ? (
        <div className="admin-card__actions">
          {x.direction === 'out' ? (
            <p className="muted">{t('statements.paidOut')}</p>
          ) : x.purchase === null || proposedByMe ? null : (
            <Link className="btn btn-primary btn-sm" to={resolveHref(here, x.id, 'approve')} preventScrollReset>
              {t(x.proposal ? 'statements.confirmApproval' : 'statements.approve')}
            </Link>
          )}
          <Link className="btn btn-ghost btn-sm" to={resolveHref(here, x.id, 'dismiss')} preventScrollReset>
            {t('statements.dismiss')}
          </Link>
        </div>
      ) : null}
    </article>
  );
}
