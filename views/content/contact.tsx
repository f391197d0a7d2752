import { Form } from 'react-router';
import { useActionData } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { toDigits } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { ContactBody } from '../../shared/contact/schemas.ts';
import { action as formAction } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Dialog } from '../components/dialog.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { useRootData } from '../root.tsx';

type Result = FormResult & { sent?: boolean };

/** The message is stored by the API before the sender is told it was sent (docs/rules/pages.md#8-contact-form). */
export const action = formAction({
  schema: ContactBody,
  call: (api, body) => api.call(contract.contact, { body }),
  both: true,
  failed: 'auth:errors.contactFailed',
  done: () => ({ sent: true }) satisfies Result,
});

export function Component() {
  const { t, i18n } = useTranslation();
  const result = useActionData<Result>();
  const { site } = useRootData();
  const e = result?.errors ?? {};
  const val = result?.values ?? {};
  const ta = (m: string | undefined) => msg(t, m);
  return (
    <>
      <Head title={t('title', { page: t('contact.title') })} description={t('contact.lead')} />
      <PageHead title={t('contact.title')} lead={t('contact.lead')} />
      <div className="container narrow contact">
        <ul className="contact-cards">
          <li className="card contact-card">
            <h2>{t('contact.phone')}</h2>
            <a href={`tel:${site.supportPhone.replace(/[^+0-9]/g, '')}`}>{toDigits(site.supportPhone, i18n.language)}</a>
            <p className="muted">{t('footer.liveSupport')}</p>
          </li>
          <li className="card contact-card">
            <h2>{t('contact.email')}</h2>
            <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
            <p className="muted">{t('contact.emailNote')}</p>
          </li>
          {site.supportAddress ? (
            <li className="card contact-card">
              <h2>{t('contact.location')}</h2>
              <p>{site.supportAddress}</p>
            </li>
          ) : null}
        </ul>
        <section className="card contact-form" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">{t('contact.formTitle')}</h2>
          {result?.formError ? <Alert kind="error">{ta(result.formError)}</Alert> : null}
          <Form method="post" noValidate className="form">
            <CsrfField />
            <Field
              label={t('contact.name')}
              name="name"
              autoComplete="name"
              required
              maxLength={100}
              defaultValue={val.name}
              error={ta(e.name)}
            />
            <Field
              label={t('contact.emailField')}
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={val.email}
              error={ta(e.email)}
            />
            <div className={`field${e.message ? ' has-error' : ''}`}>
              <label htmlFor="contact-message">{t('contact.message')}</label>
              <textarea
                id="contact-message"
                name="message"
                rows={6}
                required
                maxLength={2000}
                defaultValue={val.message}
                aria-invalid={e.message ? true : undefined}
                aria-describedby={e.message ? 'contact-message-err' : undefined}
              />
              {e.message ? (
                <p id="contact-message-err" className="field__error">
                  {ta(e.message)}
                </p>
              ) : null}
            </div>
            <SubmitButton>{t('contact.send')}</SubmitButton>
          </Form>
        </section>
      </div>
      {result?.sent ? (
        <Dialog titleId="contact-sent-title" dismissHref={paths.contact}>
          <h2 id="contact-sent-title" className="dialog__title">
            {t('contact.successTitle')}
          </h2>
          <p>{t('contact.successText')}</p>
          <a className="btn btn-primary" href={paths.contact}>
            {t('actions.close')}
          </a>
        </Dialog>
      ) : null}
    </>
  );
}
