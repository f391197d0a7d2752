import { Fragment } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { dhakaDateInputValue, formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import {
  JACKPOT_SHARE_MAX,
  LotteryBody,
  LotteryPatch,
  NEW_LOTTERY,
  NUMBERS_FIELDS,
  TICKETS_FIELDS,
  type StaffLottery,
} from '../../shared/lotteries/schemas.ts';
import { LOTTERY_KINDS } from '../../shared/draws/tiers.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, refuse, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, TextArea, type FormResult } from '../components/form.tsx';
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
      kind: 'tickets',
    };
  const numbers = l.kind === 'numbers';
  return {
    name: l.name,
    name_bn: l.name_bn,
    description: l.description,
    description_bn: l.description_bn,
    kind: l.kind,
    // A numbers lottery has no total prize or winners of its own (docs/rules/lotteries-and-sales.md#1-lottery-fields).
    ...(numbers ? {} : { winners: String(l.winners), total_prize: String(l.total_prize) }),
    ...Object.fromEntries(NUMBERS_FIELDS.map((f) => [f, l[f] === null ? '' : String(l[f])])),
    rollover_to: l.rollover_to === null ? '' : String(l.rollover_to),
    ticket_price: String(l.ticket_price),
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
  // Just created (this form's action sends the new lottery here): said above the form, not in a toast over it.
  const created = new URL(request.url).searchParams.get('notice') === 'created';
  const targets = await rolloverTargets(context, params.id === undefined ? null : Number(idOf(params.id)));
  if (params.id === undefined) return { lottery: null, values: valuesOf(null, now), problem: null, editing: false, created, targets };
  const id = idOf(params.id);
  if (!id)
    return data({ lottery: null, values: {} as Record<string, string>, problem: null, editing: true, created, targets }, { status: 404 });
  const r = await apiOf(context).call(contract.staffLottery, { params: { id } });
  if (r.ok) return { lottery: r.data, values: valuesOf(r.data, now), problem: null, editing: true, created, targets };
  const status = pageStatus(r.status);
  return data(
    {
      lottery: null,
      values: {} as Record<string, string>,
      problem: r.error.code === 'not_found' ? null : errorText(r.error, '') || null,
      editing: true,
      created,
      targets,
    },
    { status },
  );
}

/**
 * The lotteries a numbers lottery's unwon jackpot may roll into: numbers lotteries not drawn yet, other than this one
 * (the newest hundred; the API checks the one chosen).
 */
async function rolloverTargets(context: LoaderFunctionArgs['context'], self: number | null): Promise<{ id: number; name: string }[]> {
  const r = await apiOf(context).call(contract.staffLotteries, { query: { filter: 'result_not_published', limit: 100, offset: 0 } });
  if (!r.ok) return [];
  return r.data.filter((l) => l.kind === 'numbers' && l.id !== self && !l.drawn_at).map((l) => ({ id: l.id, name: l.name }));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  // A checkbox that is not ticked sends nothing: here it says "no".
  for (const f of FLAGS) form.set(f, form.get(f) === 'on' ? 'true' : 'false');
  // Both kinds' fields are on the page (the other one hidden by CSS): only the chosen kind's are sent.
  const kind = form.get('kind') === 'numbers' ? 'numbers' : 'tickets';
  for (const f of kind === 'numbers' ? TICKETS_FIELDS : [...NUMBERS_FIELDS, 'rollover_to']) form.delete(f);
  // The API's refusal: its field messages under the fields, anything else above the form.
  if (params.id === undefined) {
    form.delete('is_result_published');
    const s = await submit(form, context, {
      schema: LotteryBody,
      call: (api, body) => api.call(contract.createLottery, { body }),
      failed: (message) => key('admin:lotteryForm.createFailed', { message }),
    });
    if (!s.ok) return s.reply;
    // The new lottery itself, where staff check it and go on to its draw (docs/decisions/059-time-out-and-staff-landing.md).
    return redirect(withQuery(adminPaths.editLottery(s.data.id), { notice: 'created' }), 303);
  }
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:lotteryForm.notFound'), 404);
  // An unchanged date is left as it is stored (it may carry another hour than the form's convention).
  for (const d of ['start_date', 'end_date']) if (form.get(d) === form.get(`${d}_was`)) form.delete(d);
  // The reason is sent when results are taken back; an empty field is no reason (the API then says one is needed).
  if (!String(form.get('results_reason') ?? '').trim()) form.delete('results_reason');
  const s = await submit(form, context, {
    schema: LotteryPatch,
    call: (api, body) => api.call(contract.updateLottery, { params: { id }, body }),
    // A refusal's own message (a superuser's act, docs/rules/lotteries-and-sales.md#9-the-draw) is said with it.
    failed: (message) => (message ? key('admin:lotteryForm.updateFailedWith', { message }) : key('admin:lotteryForm.updateFailed')),
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
  // The kind and a numbers lottery's prizes are what its tickets were sold with: fixed once one is sold.
  const sold = (d.lottery?.tickets_sold ?? 0) > 0;
  const field = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field label={label} name={name} defaultValue={values[name] ?? ''} error={msg(t, e[name])} {...extra} />
  );
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={editing ? t('lotteryForm.editLead') : t('lotteryForm.createLead')} />
      {result?.saved ? <Notice text={t('lotteries.saved')} /> : null}
      {d.created && !result ? <Alert kind="success">{t('lotteries.created')}</Alert> : null}
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
          <TextArea
            idPrefix="lottery"
            name="description"
            label={t('lotteryForm.description')}
            value={values.description}
            error={msg(t, e.description)}
          />
          <TextArea
            idPrefix="lottery"
            name="description_bn"
            label={t('lotteryForm.descriptionBn')}
            value={values.description_bn}
            error={msg(t, e.description_bn)}
            lang="bn"
          />
          {field('start_date', t('lotteryForm.startDate'), { type: 'date', required: true, hint: t('lotteryForm.startHint') })}
          {field('end_date', t('lotteryForm.endDate'), { type: 'date', required: true, hint: t('lotteryForm.endHint') })}
          {field('ticket_price', t('lotteryForm.ticketPrice'), { inputMode: 'numeric', required: true })}
          {field('total_tickets', t('lotteryForm.totalTickets'), { inputMode: 'numeric', required: true })}
        </div>
        <fieldset className="admin-form__kind">
          <legend>{t('lotteryForm.kind')}</legend>
          {LOTTERY_KINDS.map((k) => (
            <label key={k} className="toggle">
              <input
                type="radio"
                name="kind"
                value={k}
                defaultChecked={(values.kind ?? 'tickets') === k}
                disabled={sold && values.kind !== k}
              />
              <span>{t(`lotteryForm.kinds.${k}`)}</span>
            </label>
          ))}
          {msg(t, e.kind) ? <p className="field__error">{msg(t, e.kind)}</p> : null}
          {sold ? <p className="field__hint">{t('lotteryForm.kindFixed')}</p> : null}
        </fieldset>
        <fieldset className="admin-form__grid kind-fields kind-fields--tickets">
          <legend>{t('lotteryForm.ticketsPrizes')}</legend>
          {field('total_prize', t('lotteryForm.totalPrize'), { inputMode: 'numeric', readOnly: drawn })}
          {field('winners', t('lotteryForm.winners'), { inputMode: 'numeric' })}
        </fieldset>
        <fieldset className="admin-form__grid kind-fields kind-fields--numbers">
          <legend>{t('lotteryForm.numbersPrizes')}</legend>
          <p className="field__hint field--wide">{t('lotteryForm.numbersLead')}</p>
          {field('jackpot_share', t('lotteryForm.jackpotShare'), {
            inputMode: 'numeric',
            hint: t('lotteryForm.jackpotShareHint', { max: formatNumber(JACKPOT_SHARE_MAX, lng as Language) }),
            readOnly: sold,
          })}
          {([2, 3, 4, 5] as const).map((n) => (
            <Fragment key={n}>{field(`tier${n}_prize`, t(`lotteryForm.tier${n}`), { inputMode: 'numeric', readOnly: sold })}</Fragment>
          ))}
          <div className={`field${e.rollover_to ? ' has-error' : ''}`}>
            <label htmlFor="lottery-rollover">{t('lotteryForm.rolloverTo')}</label>
            <select
              id="lottery-rollover"
              name="rollover_to"
              defaultValue={values.rollover_to ?? ''}
              aria-describedby="lottery-rollover-hint"
              aria-invalid={e.rollover_to ? true : undefined}
            >
              <option value="">{t('lotteryForm.rolloverNone')}</option>
              {d.targets.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
            <p id="lottery-rollover-hint" className="field__hint">
              {t('lotteryForm.rolloverHint')}
            </p>
            {e.rollover_to ? <p className="field__error">{msg(t, e.rollover_to)}</p> : null}
          </div>
        </fieldset>
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
        {d.lottery?.is_result_published ? (
          // docs/rules/lotteries-and-sales.md#9-the-draw: taking the results back is a superuser's act, with why.
          <Field
            label={t('lotteryForm.resultsReason')}
            name="results_reason"
            maxLength={500}
            autoComplete="off"
            defaultValue={values.results_reason ?? ''}
            hint={t('lotteryForm.resultsReasonHint')}
            error={msg(t, e.results_reason)}
          />
        ) : null}
        <SubmitButton>{editing ? t('lotteryForm.save') : t('lotteryForm.create')}</SubmitButton>
      </Form>
    </section>
  );
}
