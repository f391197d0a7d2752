import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { errorText, fieldErrors } from '../../shared/api-types.ts';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { ResetBody } from '../../shared/accounts/schemas.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { apiOf } from '../context.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, PasswordField, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import { Resend } from '../components/resend.tsx';

type Result = FormResult & { sentAt?: number };

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const identifier = url.searchParams.get('identifier')?.trim() ?? '';
  if (!identifier) throw redirect(paths.forgotPassword); // the code belongs to an identifier: ask for it first
  const sent = url.searchParams.get('sent');
  return { identifier, sentAt: sent && /^\d{13}$/.test(sent) ? Number(sent) : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const identifier = field(form, 'identifier');
  const api = apiOf(context);
  if (field(form, 'intent') === 'resend') {
    const r = await api.call(contract.resendResetCode, { body: { identifier } });
    if (!r.ok) return data<Result>({ formError: errorText(r.error, key('auth:errors.resendFailed')) }, { status: r.status });
    return { notice: r.data.detail, sentAt: Date.now() } satisfies Result;
  }
  const v = parseForm(form, ResetBody);
  if (!v.ok) return data<Result>({ errors: v.errors, ...(v.formError ? { formError: v.formError } : {}) }, { status: 400 });
  const r = await api.call(contract.resetPassword, { body: v.data });
  if (!r.ok) {
    const fe = fieldErrors(r.error);
    const errors = Object.fromEntries(['otp', 'new_password', 'confirm_password'].filter((f) => fe[f]).map((f) => [f, fe[f] as string]));
    return data<Result>(Object.keys(errors).length ? { errors } : { formError: errorText(r.error, key('auth:errors.resetFailed')) }, {
      status: r.status,
    });
  }
  return redirect(withQuery(paths.login, { notice: 'reset' }));
}

export function Component() {
  const { t } = useTranslation('auth');
  const { identifier, sentAt } = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const e = result?.errors ?? {};
  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle', { identifier })} description={t('forgot.subtitle')}>
      {result?.notice ? <Alert kind="success">{result.notice}</Alert> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" noValidate className="form">
        <CsrfField />
        <input type="hidden" name="identifier" value={identifier} />
        <Field
          label={t('fields.otp6')}
          name="otp"
          className="otp-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={msg(t, e.otp)}
        />
        <PasswordField
          label={t('fields.newPassword')}
          name="new_password"
          autoComplete="new-password"
          minLength={8}
          error={msg(t, e.new_password)}
        />
        <PasswordField
          label={t('fields.confirmPassword')}
          name="confirm_password"
          autoComplete="new-password"
          minLength={8}
          error={msg(t, e.confirm_password)}
        />
        <SubmitButton name="intent" value="reset">
          {t('reset.submit')}
        </SubmitButton>
        <Resend sentAt={result?.sentAt ?? sentAt} waitSec={CODE_RULES.reset.resendAfterSec} />
      </Form>
      <p className="auth-card__switch">
        <Link to={paths.forgotPassword}>{t('reset.otherAccount')}</Link>
      </p>
    </AuthCard>
  );
}
