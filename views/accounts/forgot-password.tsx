import { Form, Link, redirect, useActionData } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths, withQuery } from '../../shared/paths.ts';
import { IdentifierBody } from '../../shared/accounts/schemas.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { action as formAction } from '../components/action.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';

export const action = formAction({
  schema: IdentifierBody,
  call: (api, body) => api.call(contract.forgotPassword, { body }),
  fields: [],
  failed: 'auth:errors.sendFailed',
  done: (_, { input }) => redirect(withQuery(paths.resetPassword, { identifier: input.identifier, sent: String(Date.now()) })),
});

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
