import { Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import { paths, safeFrom, withQuery } from '../../shared/paths.ts';
import { VerifyOtpBody } from '../../shared/accounts/schemas.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { apiOf } from '../context.ts';
import { refuse, refused, submit } from '../components/action.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CHALLENGE_FIELDS, ChallengeField, type Challenge } from '../components/challenge-field.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { Resend } from '../components/resend.tsx';

type Result = FormResult & { sentAt?: number; challenge?: Challenge };

const sentParam = (v: string | null) => (v && /^\d{13}$/.test(v) ? Number(v) : null);

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const identifier = url.searchParams.get('identifier')?.trim() ?? '';
  // Without an identifier there is no account to verify: back to registration with its message.
  if (!identifier) throw redirect(withQuery(paths.register, { notice: 'noIdentifier' }));
  return {
    identifier,
    notice: url.searchParams.get('notice'),
    sentAt: sentParam(url.searchParams.get('sent')),
    from: safeFrom(url.searchParams.get('from')),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const identifier = field(form, 'identifier');
  const api = apiOf(context);
  if (field(form, 'intent') === 'resend') {
    if (!identifier) return refuse(key('auth:errors.resendNoIdentifier'), 400);
    const r = await api.call(contract.resendAccountCode, { body: { identifier } });
    if (!r.ok) return refused(r, { fields: [], failed: 'auth:errors.resendFailed' });
    return { notice: r.data.detail, sentAt: Date.now() } satisfies Result;
  }
  const s = await submit(form, context, {
    schema: VerifyOtpBody,
    secret: ['otp', ...CHALLENGE_FIELDS],
    // The right code signs him in, as a login does; he goes back to where he was (docs/rules/accounts-and-codes.md#3-account-verification).
    call: (api, body) => api.verifyAccount(body),
    fields: ['otp'],
    failed: 'auth:errors.verifyFailed',
  });
  if (!s.ok) return s.reply;
  return redirect(safeFrom(field(form, 'from')) ?? paths.home);
}

export function Component() {
  const { t, i18n } = useTranslation('auth');
  const { identifier, notice, sentAt, from } = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const e = result?.errors ?? {};
  const lastSent = result?.sentAt ?? sentAt;
  return (
    <AuthCard title={t('verify.title')} subtitle={t('verify.subtitle', { identifier })} description={t('home:meta.description')}>
      {notice === 'registered' && !result ? <Alert kind="success">{t('verify.registered')}</Alert> : null}
      {notice === 'inactive' && !result ? <Alert kind="info">{t('verify.inactive')}</Alert> : null}
      {result?.notice ? <Alert kind="success">{result.notice}</Alert> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" noValidate className="form">
        <CsrfField />
        <input type="hidden" name="identifier" value={identifier} />
        {from ? <input type="hidden" name="from" value={from} /> : null}
        <Field
          label={t('fields.otp6')}
          name="otp"
          className="otp-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={CODE_RULES.account.length}
          lang={i18n.language}
          error={msg(t, e.otp)}
        />
        {result?.challenge ? <ChallengeField challenge={result.challenge} error={msg(t, e.challenge_answer)} /> : null}
        <SubmitButton name="intent" value="verify">
          {t('verify.submit')}
        </SubmitButton>
        <Resend sentAt={lastSent} waitSec={CODE_RULES.account.resendAfterSec} />
      </Form>
      <p className="auth-card__switch">
        <Link to={withQuery(paths.register, { from })}>{t('verify.wrongAccount')}</Link>
      </p>
    </AuthCard>
  );
}
