import { data, Link, redirect, useActionData, useLoaderData, Form, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatDate, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import type { Identity } from '../../shared/identity/schemas.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import { CreateUserBody, UpdateUserBody, type StaffUser } from '../../shared/users/schemas.ts';
import { apiOf } from '../context.ts';
import { idOf, pageStatus, refuse, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { useTranslation } from '../i18n.tsx';
import { Fact } from './list.tsx';
import { callerIsSuperuser } from './rights.ts';
import { shortId } from './users.tsx';
import { UserPlayLimits, type PlayView } from './user-play-limits.tsx';

type User = z.output<typeof StaffUser>;
type Ident = z.output<typeof Identity>;

const CREATE_FLAGS = ['is_active', 'is_staff', 'is_superuser'] as const;

/**
 * A posted form as the API's request: the fields as the form sends them (strings; an unticked box sends nothing),
 * the boxes made booleans, then the API's own schema, so the page and the API check alike.
 */
const strings = (fields: readonly string[]) => z.object(Object.fromEntries(fields.map((f) => [f, z.string().optional()])));
const flags = (o: Record<string, string | undefined>): Record<string, string | boolean> =>
  Object.fromEntries(
    Object.entries(o)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k, (CREATE_FLAGS as readonly string[]).includes(k) ? v === 'on' : v]),
  );
// The API's schema checks every field after this: the cast names what it accepts, it promises nothing.
const CreateUserForm = z.pipe(
  strings(['name', 'email', 'phone', 'password', ...CREATE_FLAGS]),
  z.transform((o: Record<string, string | undefined>) => flags(o) as z.input<typeof CreateUserBody>).pipe(CreateUserBody),
);
const UpdateUserForm = z.pipe(
  strings(['name', 'email', 'phone', 'password', 'is_active']),
  z.transform((o: Record<string, string | undefined>) => flags(o) as z.input<typeof UpdateUserBody>).pipe(UpdateUserBody),
);

/** The form's values: what is stored (edit) or a new account's defaults (active, not staff). Never a password. */
function valuesOf(u: User | null): Record<string, string> {
  if (!u) return { is_active: 'on', is_staff: 'off', is_superuser: 'off' };
  return { name: u.name, email: u.email ?? '', phone: u.phone ?? '', is_active: u.is_active ? 'on' : 'off' };
}

/**
 * /admin/users/new and /admin/users/{id}/edit (staff group): one plain form each
 * (docs/rules/accounts-and-codes.md#12-staff-and-superusers); the edit page shows the player's identity details
 * (GET /api/v1/admin-users/{id}/identity/) with the NID photos served to staff through /bff.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  if (params.id === undefined)
    return { user: null, identity: null, play: null, values: valuesOf(null), problem: null, editing: false, superuser: false };
  const id = idOf(params.id);
  const none = { user: null, identity: null, play: null, values: {} as Record<string, string>, editing: true, superuser: false };
  if (!id) return data({ ...none, problem: null }, { status: 404 });
  const api = apiOf(context);
  const [r, ident, playLimits, superuser] = await Promise.all([
    api.call(contract.staffUser, { params: { id } }),
    api.call(contract.userIdentity, { params: { id } }),
    // Spend limits and self-exclusion, read only (docs/rules/play-safe.md#5-what-staff-see).
    api.call(contract.userPlayLimits, { params: { id } }),
    // Only a superuser changes a phone, an e-mail or a password (docs/rules/accounts-and-codes.md#12-staff-and-superusers).
    callerIsSuperuser(context),
  ]);
  if (!r.ok) {
    const status = pageStatus(r.status);
    return data({ ...none, problem: r.error.code === 'not_found' ? null : errorText(r.error, '') || null }, { status });
  }
  const identity: Ident | null = ident.ok ? ident.data : null;
  const play: PlayView | null = playLimits.ok ? playLimits.data : null;
  return { user: r.data, identity, play, values: valuesOf(r.data), problem: null, editing: true, superuser };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  // A checkbox that is not ticked sends nothing: here it says "no".
  for (const f of CREATE_FLAGS) if (form.get(f) !== 'on') form.set(f, 'off');
  // The API's refusal: "Failed to create user: " and its message; its field messages under the fields.
  const failed = (failure: string) => ({ both: true, failed: (message: string) => key(failure, { message }) });
  if (params.id === undefined) {
    const s = await submit(form, context, {
      schema: CreateUserForm,
      secret: ['password'],
      call: (api, body) => api.call(contract.createUser, { body }),
      ...failed('admin:users.form.createFailed'),
    });
    if (!s.ok) return s.reply;
    return redirect(withQuery(adminPaths.users, { notice: 'created' }), 303);
  }
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:users.form.notFound'), 404);
  const s = await submit(form, context, {
    schema: UpdateUserForm,
    secret: ['password'],
    call: (api, body) => api.call(contract.updateUser, { params: { id }, body }),
    ...failed('admin:users.form.updateFailed'),
  });
  if (!s.ok) return s.reply;
  return redirect(withQuery(adminPaths.users, { notice: 'updated' }), 303);
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const editing = d.editing;
  const title = editing ? t('users.form.editTitle') : t('users.form.createTitle');
  const lead = editing ? t('users.form.editLead') : t('users.form.createLead');
  const back = (
    <p className="back-link">
      <Link to={adminPaths.users}>{t('users.form.back')}</Link>
    </p>
  );
  if (editing && !d.user)
    return (
      <section className="admin-page">
        <Head title={t('common:title', { page: title })} description={lead} />
        {back}
        <h1>{title}</h1>
        <Alert kind="error">{d.problem ? t('common:errors.error', { message: d.problem }) : t('users.form.notFound')}</Alert>
      </section>
    );
  const e = result?.errors ?? {};
  const values = result?.values ? { ...d.values, ...result.values } : d.values;
  // Other staff see the phone, e-mail and password of an account they edit, disabled: a disabled input is not posted, so
  // their change of the name or the active flag leaves them as they are.
  const locked = editing && !d.superuser;
  const access = locked ? { disabled: true, 'aria-describedby': 'user-access-locked' } : {};
  const field = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field label={label} name={name} defaultValue={values[name] ?? ''} error={msg(t, e[name])} {...extra} />
  );
  const toggle = (name: (typeof CREATE_FLAGS)[number], label: string) => (
    <label key={name} className="toggle">
      <input type="checkbox" name={name} defaultChecked={values[name] === 'on'} />
      <span>{label}</span>
    </label>
  );
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={lead} />
      {back}
      <h1>
        {title}
        {d.user ? <span className="admin-card__alt">{`${d.user.name} ${shortId(d.user.id, lng)}`}</span> : null}
      </h1>
      <p className="muted">{lead}</p>
      <Form method="post" noValidate className="form card admin-form">
        <CsrfField />
        {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
        <div className="admin-form__grid">
          {field('name', t('users.form.name'), { maxLength: 100, required: true, autoComplete: 'off' })}
          {field('email', t('users.form.email'), { type: 'email', maxLength: 254, autoComplete: 'off', ...access })}
          {field('phone', t('users.form.phone'), {
            type: 'tel',
            maxLength: 20,
            placeholder: '017XXXXXXXX',
            autoComplete: 'off',
            ...access,
          })}
          <Field
            label={editing ? t('users.form.newPassword') : t('users.form.password')}
            name="password"
            type="password"
            autoComplete="new-password"
            error={msg(t, e.password)}
            hint={editing ? t('users.form.passwordKeep') : t('users.form.passwordHint')}
            {...access}
          />
        </div>
        {locked ? (
          <p id="user-access-locked" className="admin-flag admin-flag--info">
            {t('users.form.accessLocked')}
          </p>
        ) : (
          <p className="field__hint">{t('users.form.phoneOrEmail')}</p>
        )}
        {editing && !locked ? <p className="field__hint">{t('users.form.accessChangeHint')}</p> : null}
        <fieldset className="admin-form__toggles">
          <legend className="visually-hidden">{t('users.status')}</legend>
          {toggle('is_active', t('users.form.isActive'))}
          {editing ? null : (
            <>
              {toggle('is_staff', t('users.form.isStaff'))}
              {toggle('is_superuser', t('users.form.isSuperuser'))}
              <p className="field__hint">{t('users.form.rolesHint')}</p>
            </>
          )}
          {msg(t, e.is_active) ? <p className="field__error">{msg(t, e.is_active)}</p> : null}
        </fieldset>
        {editing && d.user ? <p className="muted">{d.user.is_staff || d.user.is_superuser ? t('users.form.rolesFixed') : null}</p> : null}
        <SubmitButton>{editing ? t('users.form.save') : t('users.form.create')}</SubmitButton>
      </Form>
      {editing && d.user ? <IdentityDetails identity={d.identity} dateOfBirth={d.user.date_of_birth} lng={lng} /> : null}
      {editing && d.user ? <UserPlayLimits play={d.play} lng={lng} /> : null}
    </section>
  );
}

/**
 * The player's date of birth, given at sign-up (docs/rules/accounts-and-codes.md#2-sign-up), and his identity details
 * for payment, as he gave them (docs/rules/accounts-and-codes.md#13-identity-details).
 */
function IdentityDetails({ identity, dateOfBirth, lng }: { identity: Ident | null; dateOfBirth: string | null; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <section className="card admin-form admin-identity" aria-labelledby="user-identity">
      <h2 id="user-identity">{t('users.identity.title')}</h2>
      <dl className="admin-card__facts">
        <Fact label={t('users.identity.dateOfBirth')}>
          {dateOfBirth ? formatDate(dateOfBirth, lng) : t('users.identity.noDateOfBirth')}
        </Fact>
      </dl>
      {identity ? (
        <>
          <dl className="admin-card__facts">
            <Fact label={t('users.identity.nid')}>{toDigits(identity.nid, lng)}</Fact>
            <Fact label={t('users.identity.phone')}>{toDigits(identity.phone, lng)}</Fact>
          </dl>
          <div className="admin-identity__photos">
            <figure>
              <a href={`/bff${identity.nid_front_url}`}>
                <img src={`/bff${identity.nid_front_url}`} alt={t('users.identity.frontAlt')} width={240} height={150} />
              </a>
              <figcaption>{t('users.identity.front')}</figcaption>
            </figure>
            <figure>
              <a href={`/bff${identity.nid_back_url}`}>
                <img src={`/bff${identity.nid_back_url}`} alt={t('users.identity.backAlt')} width={240} height={150} />
              </a>
              <figcaption>{t('users.identity.back')}</figcaption>
            </figure>
          </div>
        </>
      ) : (
        <p className="muted">{t('users.identity.none')}</p>
      )}
    </section>
  );
}
