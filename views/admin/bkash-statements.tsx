import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import type { FlaggedPurchase, Statement } from '../../shared/payments/statement-schemas.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { refused } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { AdminCards, adminHref, AdminPageHead, AdminResults, listData, listPlace, Fact } from './list.tsx';

type Upload = z.output<typeof Statement>;
type Flagged = z.output<typeof FlaggedPurchase>;
export const PER_PAGE = 20;
/** The statement's limit (docs/rules/payments.md#81-reading-the-statement), checked here too so that a too-large file gets the same words. */
const MAX_BYTES = 2 * 1024 * 1024;

const listHref = (page: number, flaggedPage: number): string =>
  adminHref(adminPaths.bkashStatements, { flagged: flaggedPage > 1 ? flaggedPage : null }, page);

/**
 * /admin/bkash-statements (docs/rules/payments.md#8-send-money-reconciled-with-the-statement): the upload form, the
 * purchases flagged after 48 hours, and the uploads so far (each opens its result).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { page, limit, offset } = listPlace(url, PER_PAGE);
  const flaggedPage = listPlace(new URL(`?page=${url.searchParams.get('flagged') ?? ''}`, url), PER_PAGE).page;
  const api = apiOf(context);
  const [uploads, flagged] = await Promise.all([
    api.call(contract.statements, { query: { limit, offset } }),
    api.call(contract.flaggedPurchases, { query: { limit: PER_PAGE, offset: (flaggedPage - 1) * PER_PAGE } }),
  ]);
  return { uploads: listData(uploads, page), flagged: listData(flagged, flaggedPage), page, flaggedPage };
}

/**
 * The upload form (multipart, no JavaScript needed): the file is sent to the API as it is, with its name; the answer
 * leads to the upload's result (303), or the API's refusal (a file that is not a statement…) shows above the form.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const file = form.get('file');
  if (!file || typeof file === 'string' || file.size === 0 || !file.name)
    return data<FormResult>({ errors: { file: key('admin:statements.noFile') } }, { status: 400 });
  if (file.size > MAX_BYTES) return data<FormResult>({ errors: { file: key('admin:statements.tooLarge') } }, { status: 400 });
  // The browser's idea of a CSV's type varies (text/csv, application/vnd.ms-excel, none): the API reads the bytes.
  const body = new File([await file.arrayBuffer()], file.name, { type: 'application/octet-stream' });
  const r = await apiOf(context).upload(contract.uploadStatement, body, { name: file.name.slice(-255) });
  if (r.ok) return redirect(withQuery(adminPaths.bkashStatement(r.data.id), { [r.data.repeated ? 'repeated' : 'uploaded']: '1' }), 303);
  return refused(r, { failed: 'admin:statements.uploadFailed', fields: [] });
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const title = t('statements.title');
  return (
    <section className="admin-page statements">
      <Head title={t('common:title', { page: title })} description={t('statements.lead')} />
      <AdminPageHead title={title} lead={t('statements.lead')} />

      <section className="card statements__upload" aria-labelledby="statement-upload">
        <h2 id="statement-upload">{t('statements.uploadTitle')}</h2>
        {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
        <Form method="post" encType="multipart/form-data" noValidate className="form">
          <CsrfField />
          <Field
            label={t('statements.file')}
            name="file"
            type="file"
            accept=".csv,text/csv,text/plain"
            required
            hint={t('statements.fileHint')}
            error={msg(t, result?.errors?.file)}
          />
          <SubmitButton className="btn btn-primary">{t('statements.upload')}</SubmitButton>
        </Form>
      </section>

      <section className="statements__section" aria-labelledby="statement-flagged">
        <h2 id="statement-flagged">{t('statements.flaggedTitle')}</h2>
        <p className="muted">{t('statements.flaggedLead')}</p>
        <AdminResults d={d.flagged} perPage={PER_PAGE} href={(p) => listHref(d.page, p)} empty={t('statements.flaggedEmpty')}>
          {(items) => <AdminCards items={items} card={(x) => <FlaggedCard x={x} lng={lng} />} />}
        </AdminResults>
      </section>

      <section className="statements__section" aria-labelledby="statement-uploads">
        <h2 id="statement-uploads">{t('statements.pastTitle')}</h2>
        <AdminResults d={d.uploads} perPage={PER_PAGE} href={(p) => listHref(p, d.flaggedPage)} empty={t('statements.pastEmpty')}>
          {(items) => <AdminCards items={items} card={(x) => <UploadCard x={x} lng={lng} />} />}
        </AdminResults>
      </section>
    </section>
  );
}

const STATUS_BADGE: Record<Upload['status'], string> = { awaiting_confirmation: 'pending', confirmed: 'success', discarded: 'muted' };

/**
 * An upload: its file, who uploaded it and when, whether it waits for a second staff member, who confirmed or
 * discarded it, what it did (or, while it waits, would do).
 */
export function UploadCard({ x, lng, link = true }: { x: Upload; lng: Language; link?: boolean }) {
  const { t } = useTranslation('admin');
  const heading = `statement-${x.id}`;
  const n = (v: number) => formatNumber(v, lng);
  const invalid = t('common:errors.invalidDate');
  return (
    <article className="card admin-card" aria-labelledby={heading}>
      <header className="admin-card__head">
        <h2 id={heading} className="admin-card__wrap">
          {x.file_name}
          <span className="admin-card__alt">
            {t('statements.uploadedBy', { name: x.uploaded_by.name })} ·{' '}
            <DateTime value={x.created_at} lng={lng} withTime invalid={invalid} />
          </span>
        </h2>
        <div className="admin-card__badges">
          <span className={`badge badge--${STATUS_BADGE[x.status]}`}>{t(`statements.statuses.${x.status}`)}</span>
          {x.counts.open > 0 ? <span className="badge badge--pending">{t('statements.open', { n: n(x.counts.open) })}</span> : null}
        </div>
      </header>
      {x.confirmation ? (
        <p className="admin-approval">
          {t('statements.confirmedBy', { name: x.confirmation.by.name })}{' '}
          <DateTime value={x.confirmation.at} lng={lng} withTime invalid={invalid} />
        </p>
      ) : null}
      {x.discard ? (
        <p className="admin-approval">
          {t('statements.discardedBy', { name: x.discard.by.name })} <DateTime value={x.discard.at} lng={lng} withTime invalid={invalid} />
          <br />
          <span className="admin-card__wrap">“{x.discard.reason}”</span>
        </p>
      ) : null}
      <ul className="statements__counts">
        <li>{t('statements.rowsRead', { n: n(x.counts.rows_read) })}</li>
        <li>{`${t(x.status === 'awaiting_confirmation' ? 'statements.toApprove' : 'statements.decisions.approve')}: ${n(x.counts.approved)}`}</li>
        <li>{`${t('statements.decisions.review')}: ${n(x.counts.review)}`}</li>
        <li>{`${t('statements.decisions.ignore')}: ${n(x.counts.ignored)}`}</li>
        <li>{`${t('statements.decisions.problem')}: ${n(x.counts.problems)}`}</li>
      </ul>
      {link ? (
        <p>
          <Link className="btn btn-ghost btn-sm" to={adminPaths.bkashStatement(x.id)}>
            {t('statements.show')}
          </Link>
        </p>
      ) : null}
    </article>
  );
}

function FlaggedCard({ x, lng }: { x: Flagged; lng: Language }) {
  const { t } = useTranslation('admin');
  const heading = `flagged-${x.id}`;
  const invalid = t('common:errors.invalidDate');
  return (
    <article className="card admin-card" aria-labelledby={heading}>
      <header className="admin-card__head">
        <h2 id={heading}>
          {x.user.name}
          <span className="admin-card__alt">{lotteryName(x.lottery, lng)}</span>
        </h2>
        <div className="admin-card__badges">
          <span className="badge badge--pending">{t('common:ticketStates.awaiting_confirmation')}</span>
        </div>
      </header>
      <dl className="admin-card__facts">
        <Fact label={t('statements.trxId')} className="admin-card__wrap">
          {x.trx_id}
        </Fact>
        <Fact label={t('statements.amount')}>
          <Amount value={x.amount} lng={lng} />
        </Fact>
        <Fact label={t('statements.sender')}>
          {x.payment_number ? toDigits(x.payment_number, lng) : x.user.phone ? toDigits(x.user.phone, lng) : t('common.notAvailable')}
        </Fact>
        <Fact label={t('transactions.ticket')} className="nowrap">
          {toDigits(x.ticket, lng)}
        </Fact>
        <Fact label={t('statements.trxGiven')}>
          <DateTime value={x.trx_id_at} lng={lng} withTime invalid={invalid} />
        </Fact>
      </dl>
      <p>
        <Link className="btn btn-ghost btn-sm" to={withQuery(adminPaths.transactions, { search: x.trx_id })}>
          {t('statements.purchase')} #{formatNumber(x.id, lng)}
        </Link>
      </p>
    </article>
  );
}
