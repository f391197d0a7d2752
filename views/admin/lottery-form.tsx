import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { dhakaDateInputValue } from '../../shared/dates.ts';
import { LotteryBody, LotteryPatch, NEW_LOTTERY, type StaffLottery } from '../../shared/lotteries/schemas.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, refuse, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';

type Row = z.output<typeof StaffLottery>;
type Result = FormResult & { saved?: boolean };

const FLAGS = ['published', 'featured', 'is_result_published'] as const;
const DAY_MS = 24 * 3600 * 1000;

/** The form's values: what is stored (edit) or the new-lottery defaults (create; start today, end in 7 days, Dhaka dates). */
function valuesOf(l: Row | null, now: number): Record<string, string> {
  if (!l)
    return {
      winners: String(NEW_LOTTERY.winners),
      ticket_price: String(NEW_LOTTERY.ticket_price),
      total_prize: String(NEW_LOTTERY.total_prize),
      total_tickets: String(NEW_LOTTERY.total_tickets),
      start_date: dhakaDateInputValue(new Date(now)) ?? '',
      end_date: dhakaDateInputValue(new Date(now + NEW_LOTTERY.days * DAY_MS)) ?? '',
    };
  return {
    name: l.name,
    name_bn: l.name_bn,
    description: l.description,
    description_bn: l.description_bn,
    winners: String(l.winners),
    ticket_price: String(l.ticket_price),
    total_prize: String(l.total_prize),
    total_tickets: String(l.total_tickets),
    start_date: dhakaDateInputValue(l.start_date) ?? '',
    end_date: dhakaDateInputValue(l.end_date) ?? '',
    ...(l.published ? { published: 'on' } : {}),
    ...(l.featured ? { featured: 'on' } : {}),
    ...(l.is_result_published ? { is_result_published: 'on' } : {}),
  };
}

/**
 * /admin/create-lottery and /admin/lotteries/{id}/edit (staff group): one form, posted as a plain form
 * (docs/rules/lotteries-and-sales.md#1-lottery-fields). Dates are Dhaka dates: the start at midnight, the end at the
 * 8 PM draw.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const now = Date.now();
  // Staff land here after login (views/accounts/login.tsx), told where they are going.
  const welcome = new URL(request.url).searchParams.get('welcome') === '1';
  if (params.id === undefined) return { lottery: null, values: valuesOf(null, now), problem: null, editing: false, welcome };
  const id = idOf(params.id);
  if (!id) return data({ lottery: null, values: {} as Record<string, string>, problem: null, editing: true, welcome }, { status: 404 });
  const r = await apiOf(context).call(contract.staffLottery, { params: { id } });
  if (r.ok) return { lottery: r.data, values: valuesOf(r.data, now), problem: null, editing: true, welcome };
  const status = pageStatus(r.status);
  return data(
    {
      lottery: null,
      values: {} as Record<string, string>,
      problem: r.status === 404 ? null : errorText(r.error, '') || null,
      editing: true,
      welcome,
    },
    { status },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  // A checkbox that is not ticked sends nothing: here it says "no".
  for (const f of FLAGS) form.set(f, form.get(f) === 'on' ? 'true' : 'false');
  // The API's refusal: its field messages under the fields, anything else above the form.
  if (params.id === undefined) {
    form.delete('is_result_published');
    const s = await submit(form, context, {
      schema: LotteryBody,
      call: (api, body) => api.call(contract.createLottery, { body }),
      failed: (message) => key('admin:lotteryForm.createFailed', { message }),
    });
    if (!s.ok) return s.reply;
    return redirect(withQuery(adminPaths.lotteries, { notice: 'created' }), 303);
  }
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:lotteryForm.notFound'), 404);
  // An unchanged date is left as it is stored (it may carry another hour than the form's convention).
  for (const d of ['start_date', 'end_date']) if (form.get(d) === form.get(`${d}_was`)) form.delete(d);
  const s = await submit(form, context, {
    schema: LotteryPatch,
    call: (api, body) => api.call(contract.updateLottery, { params: { id }, body }),
    failed: () => key('admin:lotteryForm.updateFailed'),
  });
  if (!s.ok) return s.reply;
  return { saved: true } satisfies Result;
}

export function Component() {
  const { t } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const editing = d.editing;
  const title = editing ? t('lotteryForm.editTitle') : t('lotteryForm.createTitle');
  if (editing && !d.lottery)
    return (
      <section className="admin-page">
        <Head title={t('common:title', { page: title })} description={t('lotteryForm.editLead')} />
        <h1>{title}</h1>
        <Alert kind="error">{d.problem ? t('common:errors.error', { message: d.problem }) : t('lotteryForm.notFound')}</Alert>
        <Link to={adminPaths.lotteries}>{t('lotteryForm.back')}</Link>
      </section>
    );
  const e = result?.errors ?? {};
  // After a refused post, what was sent; otherwise what is stored (or the defaults).
  const values = result?.values && !result.saved ? { ...d.values, ...result.values } : d.values;
  const checked = (f: (typeof FLAGS)[number]) => (result?.values && !result.saved ? result.values[f] === 'true' : values[f] === 'on');
  const drawn = (d.lottery?.prizes ?? 0) > 0;
  const field = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field label={label} name={name} defaultValue={values[name] ?? ''} error={msg(t, e[name])} {...extra} />
  );
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={editing ? t('lotteryForm.editLead') : t('lotteryForm.createLead')} />
      {result?.saved ? <Notice text={t('lotteries.saved')} /> : null}
      {d.welcome && !result ? <Notice kind="info" text={t('common:admin.redirecting')} /> : null}
      <p className="back-link">
        <Link to={adminPaths.lotteries}>{t('lotteryForm.back')}</Link>
      </p>
      <h1>{title}</h1>
      <p className="muted">{editing ? t('lotteryForm.editLead') : t('lotteryForm.createLead')}</p>
      {drawn ? <Alert kind="info">{t('lotteryForm.drawn')}</Alert> : null}
      {/* key: a saved form starts again from the stored values */}
      <Form method="post" noValidate className="form card admin-form" key={result?.saved ? 'saved' : 'form'}>
        <CsrfField />
        {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
        <div className="admin-form__grid">
          {field('name', t('lotteryForm.name'), { maxLength: 120, required: true })}
          {field('name_bn', t('lotteryForm.nameBn'), { maxLength: 120, lang: 'bn', hint: t('lotteryForm.nameBnHint') })}
          <TextArea name="description" label={t('lotteryForm.description')} value={values.description} error={msg(t, e.description)} />
          <TextArea
            name="description_bn"
            label={t('lotteryForm.descriptionBn')}
            value={values.description_bn}
            error={msg(t, e.description_bn)}
            lang="bn"
          />
          {field('start_date', t('lotteryForm.startDate'), { type: 'date', required: true, hint: t('lotteryForm.startHint') })}
          {field('end_date', t('lotteryForm.endDate'), { type: 'date', required: true, hint: t('lotteryForm.endHint') })}
          {field('total_prize', t('lotteryForm.totalPrize'), { inputMode: 'numeric', required: true, readOnly: drawn })}
          {field('ticket_price', t('lotteryForm.ticketPrice'), { inputMode: 'numeric', required: true })}
          {field('winners', t('lotteryForm.winners'), { inputMode: 'numeric', required: true })}
          {field('total_tickets', t('lotteryForm.totalTickets'), { inputMode: 'numeric', required: true })}
        </div>
        {editing ? (
          <>
            <input type="hidden" name="start_date_was" value={d.values.start_date ?? ''} />
            <input type="hidden" name="end_date_was" value={d.values.end_date ?? ''} />
          </>
        ) : null}
        <fieldset className="admin-form__toggles">
          {(editing ? FLAGS : FLAGS.slice(0, 2)).map((f) => (
            <label key={f} className="toggle">
              <input type="checkbox" name={f} defaultChecked={checked(f)} />
              <span>{t(`lotteryForm.${f === 'is_result_published' ? 'resultPublished' : f}`)}</span>
            </label>
          ))}
        </fieldset>
        <SubmitButton>{editing ? t('lotteryForm.save') : t('lotteryForm.create')}</SubmitButton>
      </Form>
    </section>
  );
}

function TextArea({
  name,
  label,
  value,
  error,
  lang,
}: {
  name: string;
  label: string;
  value: string | undefined;
  error?: string | undefined;
  lang?: string;
}) {
  const id = `lottery-${name}`;
  return (
    <div className={`field field--wide${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        maxLength={2000}
        defaultValue={value ?? ''}
        lang={lang}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
      />
      {error ? (
        <p id={`${id}-err`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
