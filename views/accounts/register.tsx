import { useState } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths, safeFrom, withQuery } from '../../shared/paths.ts';
import { RegisterForm } from '../../shared/accounts/schemas.ts';
import { EARLIEST_BIRTH } from '../../shared/accounts/age.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { v as V } from '../../shared/fields.ts';
import { isPictureFile, PICTURE_TYPES } from '../../shared/uploads/schemas.ts';
import { apiOf } from '../context.ts';
import { pageStatus, refused } from '../components/action.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, PasswordField, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';

/** Visitors only (the `guest` group of views/routes.tsx). */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { from: safeFrom(url.searchParams.get('from')), notice: url.searchParams.get('notice') };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const v = parseForm(form, RegisterForm, { secret: ['password'] });
  const values = v.values;
  if (!v.ok) {
    // Missing required fields are named once for the whole form first, then "phone or e-mail".
    const fill = Object.values(v.errors).find((m) => m === key(V('fillRequired')));
    return data<FormResult>({ errors: v.errors, formError: fill ?? v.formError, values }, { status: 400 });
  }
  const api = apiOf(context);
  let picture: string | null = null;
  const file = form.get('picture');
  if (file && typeof file !== 'string' && file.size > 0) {
    if (!isPictureFile(file)) return data<FormResult>({ errors: { picture: key(V('pictureInvalid')) }, values }, { status: 400 });
    const up = await api.upload(contract.uploadImage, file);
    if (!up.ok)
      return data<FormResult>({ errors: { picture: key('auth:errors.uploadFailed') }, values }, { status: pageStatus(up.status) });
    picture = up.data.data.id;
  }
  const { firstName, lastName, ...rest } = v.data;
  const r = await api.call(contract.signup, { body: { ...rest, name: `${firstName} ${lastName}`, picture } });
  if (!r.ok) return refused(r, { both: true, failed: 'auth:errors.registrationFailed', values });
  return redirect(
    withQuery(paths.verifyOtp, {
      identifier: r.data.identifier,
      notice: 'registered',
      sent: String(Date.now()),
      from: safeFrom(field(form, 'from')),
    }),
  );
}

export function Component() {
  const { t } = useTranslation('auth');
  const { from, notice } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const e = result?.errors ?? {};
  const val = result?.values ?? {};
  const [preview, setPreview] = useState<string | null>(null);
  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      {notice === 'noIdentifier' ? <Alert kind="error">{t('errors.noIdentifier')}</Alert> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" encType="multipart/form-data" noValidate className="form">
        <CsrfField />
        {from ? <input type="hidden" name="from" value={from} /> : null}
        <div className={`field${e.picture ? ' has-error' : ''}`}>
          <span className="field__label">{t('fields.picture')}</span>
          <label className="avatar-upload">
            <span className="avatar-upload__preview">{preview ? <img src={preview} alt="" /> : <CameraIcon />}</span>
            <span>
              <span className="btn btn-ghost btn-sm">{t('register.choosePicture')}</span>
              <input
                className="visually-hidden"
                type="file"
                name="picture"
                accept={PICTURE_TYPES.join(',')}
                onChange={(ev) => {
                  const f = ev.currentTarget.files?.[0];
                  setPreview(f ? URL.createObjectURL(f) : null);
                }}
              />
            </span>
          </label>
          <p className="field__hint">{t('register.pictureHint')}</p>
          {e.picture ? <p className="field__error">{msg(t, e.picture)}</p> : null}
        </div>
        <div className="field-row">
          <Field
            label={t('fields.firstName')}
            name="firstName"
            autoComplete="given-name"
            required
            defaultValue={val.firstName}
            error={msg(t, e.firstName)}
          />
          <Field
            label={t('fields.lastName')}
            name="lastName"
            autoComplete="family-name"
            required
            defaultValue={val.lastName}
            error={msg(t, e.lastName ?? e.name)}
          />
        </div>
        <Field
          label={t('fields.phone')}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('fields.phonePlaceholder')}
          defaultValue={val.phone}
          error={msg(t, e.phone)}
          hint={t('register.phoneOrEmailHint')}
        />
        <Field label={t('fields.email')} name="email" type="email" autoComplete="email" defaultValue={val.email} error={msg(t, e.email)} />
        <PasswordField
          label={t('fields.password')}
          name="password"
          autoComplete="new-password"
          required
          minLength={8}
          error={msg(t, e.password)}
        />
        <Field
          label={t('fields.dateOfBirth')}
          name="date_of_birth"
          type="date"
          autoComplete="bday"
          required
          min={EARLIEST_BIRTH}
          placeholder="DD/MM/YYYY"
          defaultValue={val.date_of_birth}
          error={msg(t, e.date_of_birth)}
          hint={t('fields.dateOfBirthHint')}
        />
        <Field
          label={t('fields.location')}
          name="location"
          autoComplete="address-level2"
          defaultValue={val.location}
          error={msg(t, e.location)}
        />
        <p className="field__hint">
          {t('register.termsBefore')}
          <Link to={paths.terms} target="_blank">
            {t('register.termsLink')}
          </Link>
          {t('register.termsAfter')}
        </p>
        <SubmitButton>{t('register.submit')}</SubmitButton>
      </Form>
      <p className="auth-card__switch">
        {t('register.haveAccount')} <Link to={withQuery(paths.login, { from })}>{t('register.loginLink')}</Link>
      </p>
      <p className="auth-card__home">
        <Link to={paths.home}>← {t('backHome')}</Link>
      </p>
    </AuthCard>
  );
}

const CameraIcon = () => (
  <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
    <path
      fill="currentColor"
      d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9Zm3 5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z"
    />
  </svg>
);
