import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { AUDIT_ENTITIES } from '../../shared/audit/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';
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
} from './list.tsx';

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
    entity: oneOf(AUDIT_ENTITIES, entityParam),
    entityId: (url.searchParams.get('entity_id') ?? '').trim().slice(0, 40),
    action: (url.searchParams.get('action') ?? '').trim().slice(0, 60),
  };
  const { page, limit, offset } = listPlace(url, PER_PAGE);
  const r = await apiOf(context).call(contract.auditLog, {
    query: {
      entity: f.entity ?? undefined,
      entity_id: f.entityId || undefined,
      action: f.action || undefined,
      limit,
      offset,
    },
  });
  return { f, forbidden: !r.ok && r.error.code === 'permission_denied', ...listData(r, page) };
}

/** A before/after value as compact JSON (null: nothing). */
const shown = (v: unknown): string => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 1));

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('audit.title') })} description={t('audit.lead')} />
      <AdminPageHead title={t('audit.title')} lead={t('audit.lead')} />
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
          <AdminResults d={d} perPage={PER_PAGE} href={(p) => listHref(d.f, p)} empty={t('audit.empty')}>
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
                    <td>{a.actor ? `${a.actor.name} (#${a.actor.id})` : t('audit.system')}</td>
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
