import { data, Form, Link, redirect, useActionData, type ActionFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { errorText } from '../../shared/api-types.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { IdentifierBody } from '../../shared/accounts/schemas.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { apiOf } from '../context.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const v = parseForm(form, IdentifierBody);
  if (!v.ok) return data<FormResult>({ errors: v.errors, values: v.values }, { status: 400 });
  const r = await apiOf(context).call(contract.forgotPassword, { body: v.data });
  if (!r.ok)
    return data<FormResult>({ formError: errorText(r.error, key('auth:errors.sendFailed')), values: v.values }, { status: r.status });
  return redirect(withQuery(paths.resetPassword, { identifier: v.data.identifier, sent: String(Date.now()) }));
}

export function Component() {
  const { t } = useTranslation('auth');
  const result = useActionData<FormResult>();
  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" noValidate className="form">
        <CsrfField />
        <Field
          label={t('fields.identifier')}
          name="identifier"
          autoComplete="username"
          required
          placeholder={t('fields.identifierPlaceholder')}
          defaultValue={result?.values?.identifier ?? ''}
          error={msg(t, result?.errors?.identifier)}
        />
        <SubmitButton>{t('forgot.submit')}</SubmitButton>
      </Form>
      <p className="auth-card__switch">
        <Link to={paths.login}>← {t('forgot.backToLogin')}</Link>
      </p>
    </AuthCard>
  );
}
