import { data, Form, Link, redirect, useActionData, type ActionFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { errorText } from '../../shared/api-types.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { validateForgot } from '../../shared/validation.ts';
import { apiOf } from '../context.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, field, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, keyed, msg } from '../components/messages.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const identifier = field(form, 'identifier');
  const v = validateForgot({ identifier });
  if (!v.ok) return data<FormResult>({ errors: keyed(v.errors), values: { identifier } }, { status: 400 });
  const r = await apiOf(context).send('POST', '/api/v1/forgot-password/', { identifier });
  if (!r.ok) return data<FormResult>({ formError: errorText(r.error, key('sendFailed')), values: { identifier } }, { status: r.status });
  return redirect(withQuery(paths.resetPassword, { identifier, sent: String(Date.now()) }));
}

export function Component() {
  const { t } = useTranslation('auth');
  const result = useActionData<FormResult>();
  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" noValidate className="form">
        <CsrfField />
        <Field label={t('fields.identifier')} name="identifier" autoComplete="username" required placeholder={t('fields.identifierPlaceholder')} defaultValue={result?.values?.identifier ?? ''} error={msg(t, result?.errors?.identifier)} />
        <SubmitButton>{t('forgot.submit')}</SubmitButton>
      </Form>
      <p className="auth-card__switch"><Link to={paths.login}>← {t('forgot.backToLogin')}</Link></p>
    </AuthCard>
  );
}
