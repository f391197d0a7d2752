import { Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { ResetBody } from '../../shared/accounts/schemas.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { apiOf } from '../context.ts';
import { refused, submit } from '../components/action.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CHALLENGE_FIELDS, ChallengeField, type Challenge } from '../components/challenge-field.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, PasswordField, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { Resend } from '../components/resend.tsx';

type Result = FormResult & { sentAt?: number; challenge?: Challenge };

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
    if (!r.ok) return refused(r, { fields: [], failed: 'auth:errors.resendFailed' });
    return { notice: r.data.detail, sentAt: Date.now() } satisfies Result;
  }
  const s = await submit(form, context, {
    schema: ResetBody,
    secret: ['otp', 'new_password', 'confirm_password', ...CHALLENGE_FIELDS],
    call: (api, body) => api.call(contract.resetPassword, { body }),
    fields: ['otp', 'new_password', 'confirm_password'],
    failed: 'auth:errors.resetFailed',
  });
  if (!s.ok) return s.reply;
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
          maxLength={CODE_RULES.reset.length}
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
        {result?.challenge ? <ChallengeField challenge={result.challenge} error={msg(t, e.challenge_answer)} /> : null}
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
