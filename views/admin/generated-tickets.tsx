import { Form, Link, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { ACTIVATION_FILTERS, GenerateForm, MAX_GENERATE, type GeneratedTicket } from '../../shared/generated-tickets/schemas.ts';
import { exportHref, secretGroups } from '../../shared/generated-tickets/export.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { idOf, refuse, refused, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { DateTime } from '../components/nowrap.tsx';
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

type Row = z.output<typeof GeneratedTicket>;
type Activation = (typeof ACTIVATION_FILTERS)[number];
/** `confirm`: the ticket whose deletion waits for "Yes, delete" (the confirmation works without JavaScript). */
type Result = FormResult & { confirm?: number };
export const PER_PAGE = 24;
/** Generated-ticket toasts stay 5 s at the bottom right (the back office's other toasts are at the top). */
const TOAST = { position: 'bottom-right', ms: 5000 } as const;

type Filters = { search: string; lotteryId: number | null; activation: Activation };

const listHref = (f: Filters, page: number): string =>
  adminHref(adminPaths.generatedTickets, { search: f.search, lottery_id: f.lotteryId, activation: f.activation }, page);

/**
 * /admin/generated-tickets: pre-generated tickets searched, filtered and paged by the server, generated, deleted
 * (non-activated only, after a confirmation) and exported as CSV (docs/rules/tickets.md#6-generated-tickets, #8).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lotteryParam = url.searchParams.get('lottery_id') ?? '';
  const activationParam = url.searchParams.get('activation') ?? '';
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const f: Filters = {
    search,
    lotteryId: /^[1-9]\d{0,15}$/.test(lotteryParam) ? Number(lotteryParam) : null,
    activation: oneOf(ACTIVATION_FILTERS, activationParam) ?? 'all',
  };
  const api = apiOf(context);
  const query = { search: f.search || undefined, lottery_id: f.lotteryId ?? undefined };
  const [r, lotteries, exportable] = await Promise.all([
    api.call(contract.generatedTickets, { query: { ...query, activation: f.activation, limit, offset } }),
    api.call(contract.staffLotteries, { query: { filter: 'result_not_published', limit: 100 } }),
    // What an export of this view would hold: its non-activated tickets (only for one lottery).
    f.lotteryId && f.activation !== 'activated'
      ? api.call(contract.generatedTickets, { query: { ...query, activation: 'not_activated', limit: 1 } })
      : Promise.resolve(null),
  ]);
  return {
    f,
    here: listHref(f, page),
    lotteries: lotteries.ok ? lotteries.data.map((l) => ({ id: l.id, name: l.name, name_bn: l.name_bn })) : [],
    exportCount: exportable?.ok ? (exportable.total ?? exportable.data.length) : 0,
    ...listData(r, page),
  };
}

/** Generate, ask to delete, delete: plain form posts. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = field(form, 'intent');
  if (intent === 'generate') {
    const s = await submit(form, context, {
      schema: GenerateForm,
      call: (api, body) => api.call(contract.generateTickets, { body }),
      fields: [],
      failed: 'admin:generated.generateFailed',
    });
    if (!s.ok) return s.reply;
    return { notice: key('admin:generated.generated', { count: s.data.length, n: s.data.length }) } satisfies Result;
  }
  const id = idOf(field(form, 'ticket'));
  if (!id || (intent !== 'delete' && intent !== 'delete-confirmed')) return refuse(key('admin:generated.deleteFailed'), 400);
  if (intent === 'delete') return { confirm: Number(id) } satisfies Result;
  const r = await apiOf(context).call(contract.deleteGeneratedTicket, { params: { id } });
  if (r.ok) return { notice: key('admin:generated.deleted') } satisfies Result;
  return refused(r, { fields: [], failed: 'admin:generated.deleteFailed' });
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const e = result?.errors ?? {};
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('generated.title') })} description={t('generated.lead')} />
      {result?.notice ? <Notice text={msg(t, result.notice) ?? ''} {...TOAST} /> : null}
      {result?.formError ? <Notice kind="error" text={msg(t, result.formError) ?? ''} {...TOAST} /> : null}
      <AdminPageHead title={t('generated.title')} lead={t('generated.lead')} />

      <details className="admin-filter-panel" open={Boolean(e.lottery_id)}>
        <summary className="btn btn-primary">{t('generated.generate')}</summary>
        <Form method="post" className="card admin-form admin-generate" noValidate>
          <CsrfField />
          <h2>{t('generated.generateTitle')}</h2>
          <div className={`field${e.lottery_id ? ' has-error' : ''}`}>
            <label htmlFor="generate-lottery">{t('generated.lottery')}</label>
            <select
              id="generate-lottery"
              name="lottery_id"
              defaultValue={result?.values?.lottery_id ?? String(d.f.lotteryId ?? '')}
              aria-invalid={e.lottery_id ? true : undefined}
            >
              <option value="">{t('generated.chooseLottery')}</option>
              {d.lotteries.map((l) => (
                <option key={l.id} value={l.id}>
                  {lotteryName(l, lng)}
                </option>
              ))}
            </select>
            {e.lottery_id ? <p className="field__error">{msg(t, e.lottery_id)}</p> : null}
          </div>
          <div className="field">
            <label htmlFor="generate-quantity">{t('generated.quantity')}</label>
            <input
              id="generate-quantity"
              name="quantity"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_GENERATE}
              defaultValue={result?.values?.quantity ?? '1'}
            />
            <p className="field__hint">{t('generated.quantityHint', { max: formatNumber(MAX_GENERATE, lng) })}</p>
          </div>
          <SubmitButton name="intent" value="generate">
            {t('generated.generateSubmit')}
          </SubmitButton>
        </Form>
      </details>

      <AdminFilters>
        <FilterInput id="generated-search" label={t('generated.searchLabel')} defaultValue={d.f.search} />
        <FilterSelect
          id="generated-lottery"
          name="lottery_id"
          label={t('generated.lottery')}
          value={String(d.f.lotteryId ?? '')}
          any={t('generated.allLotteries')}
          options={d.lotteries.map((l) => ({ value: l.id, label: lotteryName(l, lng) }))}
        />
        <FilterSelect
          id="generated-activation"
          name="activation"
          label={t('generated.activation')}
          value={d.f.activation}
          options={ACTIVATION_FILTERS.map((a) => ({ value: a, label: t(`generated.activations.${a}`) }))}
        />
      </AdminFilters>

      <div className="admin-export">
        {d.f.lotteryId && d.exportCount > 0 ? (
          <a className="btn btn-ghost" href={exportHref({ lotteryId: d.f.lotteryId, search: d.f.search })} download>
            {t('generated.export', { n: formatNumber(d.exportCount, lng) })}
          </a>
        ) : (
          <p className="muted">{d.f.lotteryId ? t('generated.nothingToExport') : t('generated.exportNeedsLottery')}</p>
        )}
      </div>

      <AdminResults d={d} perPage={PER_PAGE} href={(p) => listHref(d.f, p)} empty={t('generated.empty')}>
        {(items) => (
          <AdminCards
            items={items}
            className="admin-cards--tickets"
            card={(g) => <TicketCard g={g} lng={lng} confirm={result?.confirm === g.id} back={d.here} />}
          />
        )}
      </AdminResults>
    </section>
  );
}

function TicketCard({ g, lng, confirm, back }: { g: Row; lng: Language; confirm: boolean; back: string }) {
  const { t } = useTranslation('admin');
  const invalid = t('common:errors.invalidDate');
  return (
    <article className="card admin-card" aria-labelledby={`gt-${g.id}`}>
      <header className="admin-card__head">
        <h2 id={`gt-${g.id}`} className="visually-hidden">
          {t('generated.ticketLabel', { ticket: g.ticket_number })}
        </h2>
        <div className="gt-numbers" aria-hidden="true">
          {g.ticket_number.split('-').map((part, i) => (
            <span key={i} className="badge badge--muted gt-number">
              {toDigits(part, lng)}
            </span>
          ))}
        </div>
        <span className={`badge ${g.is_activated ? 'badge--success' : 'badge--pending'}`}>
          {g.is_activated ? t('generated.activations.activated') : t('generated.activations.not_activated')}
        </span>
      </header>
      <dl className="admin-card__facts">
        <Fact label={t('generated.secret')} className="gt-secret">
          {toDigits(secretGroups(g.secret_number), lng)}
        </Fact>
        <Fact label={t('generated.lottery')}>{lotteryName(g.lottery, lng)}</Fact>
        <Fact label={t('generated.created')}>
          <DateTime value={g.created_at} lng={lng} withTime invalid={invalid} />
        </Fact>
        {g.is_activated ? (
          <Fact label={t('generated.activatedBy')}>
            {g.activated_by
              ? [g.activated_by.name, g.activated_by.phone ?? g.activated_by.email].filter(Boolean).join(', ')
              : t('common.notAvailable')}
            {g.activated_at ? (
              <>
                <br />
                <DateTime value={g.activated_at} lng={lng} withTime invalid={invalid} />
              </>
            ) : null}
          </Fact>
        ) : null}
      </dl>
      {!g.is_activated ? (
        <Form method="post" className="admin-card__actions">
          <CsrfField />
          <input type="hidden" name="ticket" value={g.id} />
          {confirm ? (
            <div className="admin-confirm" role="alertdialog" aria-labelledby={`gt-confirm-${g.id}`}>
              <p id={`gt-confirm-${g.id}`}>{t('generated.confirmDelete')}</p>
              <SubmitButton name="intent" value="delete-confirmed" className="btn btn-danger btn-sm">
                {t('generated.yesDelete')}
              </SubmitButton>
              <Link className="btn btn-ghost btn-sm" to={back}>
                {t('common:actions.cancel')}
              </Link>
            </div>
          ) : (
            <SubmitButton name="intent" value="delete" className="btn btn-ghost btn-sm">
              {t('generated.delete')}
            </SubmitButton>
          )}
        </Form>
      ) : null}
    </article>
  );
}
