import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { adminPaths, paths, safeFrom, withQuery } from '../../shared/paths.ts';
import { LoginBody } from '../../shared/accounts/schemas.ts';
import { apiOf } from '../context.ts';
import { invalid, refusal } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, PasswordField, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CHALLENGE_FIELDS, ChallengeField, challengeOf, type Challenge } from '../components/challenge-field.tsx';

type LoginResult = FormResult & { challenge?: Challenge | undefined };

/** Visitors only (the `guest` group of views/routes.tsx). */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { from: safeFrom(url.searchParams.get('from')), notice: url.searchParams.get('notice') };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const from = safeFrom(field(form, 'from'));
  const v = parseForm(form, LoginBody, { secret: ['password', ...CHALLENGE_FIELDS] });
  if (!v.ok) return invalid(v);
  const r = await apiOf(context).login(v.data);
  if (!r.ok) {
    if (r.error.code === 'account_not_active') {
      return redirect(
        withQuery(paths.verifyOtp, {
          identifier: typeof r.error.identifier === 'string' ? r.error.identifier : v.data.phone,
          notice: 'inactive',
          from,
        }),
      );
    }
    // Any other refusal is a 400, a wait a 429 (docs/rules/accounts-and-codes.md#4-login); a challenge asked for
    // comes with its question, shown in the form (docs/rules/limits.md#1-rate-limits).
    return data<LoginResult>(
      { ...refusal(r.error, { fields: [], failed: 'auth:errors.loginFailed' }), values: v.values, challenge: challengeOf(r.error) },
      { status: r.error.code === 'throttled' ? 429 : 400 },
    );
  }
  // Staff land on the back office's dashboard (docs/rules/pages.md#9-back-office), players on the home page.
  return redirect(from ?? (r.data.is_staff ? adminPaths.dashboard : paths.home));
}

export function Component() {
  const { t } = useTranslation('auth');
  const { from, notice } = useLoaderData<typeof loader>();
  const result = useActionData<LoginResult>();
  const e = result?.errors ?? {};
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      {notice && ['reset', 'loggedOut', 'loggedOutEverywhere'].includes(notice) ? (
        <Alert kind="success">{t(`login.notice.${notice}`)}</Alert>
      ) : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" noValidate className="form">
        <CsrfField />
        {from ? <input type="hidden" name="from" value={from} /> : null}
        <Field
          label={t('fields.identifier')}
          name="phone"
          autoComplete="username"
          inputMode="email"
          required
          defaultValue={result?.values?.phone ?? ''}
          placeholder={t('fields.identifierPlaceholder')}
          error={msg(t, e.phone)}
        />
        <PasswordField label={t('fields.password')} name="password" autoComplete="current-password" required error={msg(t, e.password)} />
        {result?.challenge ? <ChallengeField challenge={result.challenge} error={msg(t, e.challenge_answer)} /> : null}
        <p className="form__aside">
          <Link to={paths.forgotPassword}>{t('login.forgot')}</Link>
        </p>
        <SubmitButton>{t('login.submit')}</SubmitButton>
      </Form>
      <p className="auth-card__switch">
        {t('login.noAccount')} <Link to={withQuery(paths.register, { from })}>{t('login.registerLink')}</Link>
      </p>
      <p className="auth-card__home">
        <Link to={paths.home}>← {t('backHome')}</Link>
      </p>
    </AuthCard>
  );
}
