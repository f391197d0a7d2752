import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { AUDIT_ENTITIES } from '../../shared/audit/schemas.ts';
import { formatNumber, type Lng } from '../../shared/dates.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { adminHref, AdminFilters, AdminResults, AdminTable, FilterInput, FilterSelect } from './list.tsx';
import { parsePage } from '../lotteries/paging.ts';

export const PER_PAGE = 50;
type Entity = (typeof AUDIT_ENTITIES)[number];
type Filters = { entity: Entity | null; entityId: string; action: string };

const listHref = (f: Filters, page: number): string =>
  adminHref(adminPaths.auditLog, { entity: f.entity, entity_id: f.entityId, action: f.action }, page);

/** /admin/audit-log: every recorded staff change, newest first, for superusers (docs/rules/security.md#7-audit-log). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const entityParam = url.searchParams.get('entity') ?? '';
  const f: Filters = {
    entity: (AUDIT_ENTITIES as readonly string[]).includes(entityParam) ? (entityParam as Entity) : null,
    entityId: (url.searchParams.get('entity_id') ?? '').trim().slice(0, 40),
    action: (url.searchParams.get('action') ?? '').trim().slice(0, 60),
  };
  const page = parsePage(url.searchParams.get('page'), 10_000);
  const r = await apiOf(context).call(contract.auditLog, {
    query: {
      entity: f.entity ?? undefined,
      entity_id: f.entityId || undefined,
      action: f.action || undefined,
      limit: PER_PAGE,
      offset: (page - 1) * PER_PAGE,
    },
  });
  if (!r.ok) return { f, page, items: null, total: 0, error: errorText(r.error, '') || null, forbidden: r.status === 403 };
  return { f, page, items: r.data, total: r.total ?? r.data.length, error: null, forbidden: false };
}

/** A before/after value as compact JSON (null: nothing). */
const shown = (v: unknown): string => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 1));

export function Component() {
  const {
    t,
    i18n: { language },
  } = useTranslation('admin');
  const lng = language as Lng;
  const d = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('audit.title') })} description={t('audit.lead')} />
      <header className="admin-page__head">
        <div>
          <h1>{t('audit.title')}</h1>
          <p className="muted">{t('audit.lead')}</p>
        </div>
      </header>
      {d.forbidden ? (
        <Alert kind="info">{t('audit.superuserOnly')}</Alert>
      ) : (
        <>
          <AdminFilters>
            <FilterSelect
              id="audit-entity"
              name="entity"
              label={t('audit.entity')}
              value={d.f.entity ?? ''}
              any={t('audit.allEntities')}
              options={AUDIT_ENTITIES.map((e) => ({ value: e, label: t(`audit.entities.${e}`) }))}
            />
            <FilterInput
              id="audit-id"
              name="entity_id"
              label={t('audit.entityId')}
              defaultValue={d.f.entityId}
              maxLength={40}
              inputMode="numeric"
            />
            <FilterInput
              id="audit-action"
              name="action"
              label={t('audit.action')}
              defaultValue={d.f.action}
              maxLength={60}
              placeholder="transaction.approve"
            />
          </AdminFilters>
          <AdminResults
            d={d}
            perPage={PER_PAGE}
            href={(p) => listHref(d.f, p)}
            count={t('common.count', { count: d.total, n: formatNumber(d.total, lng) })}
            empty={t('audit.empty')}
            lng={lng}
          >
            {(items) => (
              <AdminTable
                label={t('audit.title')}
                className="audit-table"
                columns={[t('audit.when'), t('audit.who'), t('audit.action'), t('audit.what'), t('audit.before'), t('audit.after')]}
              >
                {items.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <DateTime value={a.created_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                    </td>
                    <td>{a.actor ? `${a.actor.name} (#${a.actor.id})` : t('common.notAvailable')}</td>
                    <td>
                      <code>{a.action}</code>
                    </td>
                    <td>
                      {t(`audit.entities.${a.entity}`, { defaultValue: a.entity })} #{a.entity_id}
                    </td>
                    <td>
                      <pre className="audit-json">{shown(a.before)}</pre>
                    </td>
                    <td>
                      <pre className="audit-json">{shown(a.after)}</pre>
                    </td>
                  </tr>
                ))}
              </AdminTable>
            )}
          </AdminResults>
        </>
      )}
    </section>
  );
}
