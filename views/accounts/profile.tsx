import type { ReactNode } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { UpdateProfileBody } from '../../shared/accounts/schemas.ts';
import type { Reply } from '../../shared/api/endpoint.ts';
import { LANGUAGES } from '../../shared/i18n.ts';
import { MessageSettingsForm } from '../../shared/messages/schemas.ts';
import { useTranslation } from '../i18n.tsx';
import type { UserProfile } from '../../shared/api-types.ts';
import { toDigits } from '../../shared/dates.ts';
import { v as V } from '../../shared/fields.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { isPictureFile, PICTURE_TYPES } from '../../shared/uploads/schemas.ts';
import { apiOf } from '../context.ts';
import { fieldRefusal, pageStatus, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Dialog } from '../components/dialog.tsx';
import { Alert, Field, PasswordField, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';

const EDIT_TITLE_ID = 'edit-profile-title';

type ProfileData =
  | { profile: UserProfile; error: null; editing: boolean; updated: boolean; messages: MessageChoices; messagesSaved: boolean }
  | { profile: null; error: 'notFound' | 'load'; editing: false; updated: false; messages: null; messagesSaved: false };

/** The player's message settings (docs/rules/messages.md#5-the-pages), as `GET /api/v1/message-settings/` answers them. */
type MessageChoices = Reply<typeof contract.myProfile>['messages'];

/** The player's own profile and his message settings, in one read of `GET /api/v1/my-profile/`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const toLogin = () => redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  const r = await apiOf(context).call(contract.myProfile);
  const editing = url.pathname.replace(/\/$/, '') === paths.profileEdit;
  if (r.ok)
    return data<ProfileData>({
      profile: r.data.user,
      error: null,
      editing,
      updated: !editing && url.searchParams.get('updated') === '1',
      messages: r.data.messages,
      messagesSaved: !editing && url.searchParams.get('saved') === MESSAGES,
    });
  if (r.status === 401) throw toLogin(); // the session ended since the page's check
  const notFound = r.error.code === 'not_found';
  return data<ProfileData>(
    { profile: null, error: notFound ? 'notFound' : 'load', editing: false, updated: false, messages: null, messagesSaved: false },
    { status: notFound ? 404 : 502 },
  );
}

/**
 * The Edit Profile form (docs/rules/accounts-and-codes.md#11-profile): parsed with the API's own schema, a new
 * picture uploaded first, then `PATCH /api/v1/update-profile/`. Success goes back to /profile with a confirmation;
 * refusals come back under their fields.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === END_ALL || intent === END_ALL_CONFIRMED) return endAllSessions(intent, context);
  if (intent === MESSAGES) return saveMessageSettings(form, context);
  // The picture is a file here, never an upload id typed into the form.
  const file = form.get('picture');
  form.delete('picture');
  const s = await submit(form, context, {
    schema: UpdateProfileBody,
    secret: ['password'],
    call: async (api, body) => {
      let picture: string | undefined;
      if (file && typeof file !== 'string' && file.size > 0) {
        if (!isPictureFile(file)) return fieldRefusal('picture', key(V('pictureInvalid')));
        const up = await api.upload(contract.uploadImage, file);
        if (!up.ok) return fieldRefusal('picture', key('profile:edit.uploadFailed'), up.status);
        picture = up.data.data.id;
      }
      return api.call(contract.updateProfile, { body: { ...body, ...(picture ? { picture } : {}) } });
    },
    fix: key('profile:edit.fixErrors'),
    failed: 'profile:edit.failed',
  });
  if (!s.ok) return s.reply;
  // The top bar and the payment page read the name and phone from the session: renewed, they are the new ones.
  await s.api.renewSession();
  return redirect(withQuery(paths.profile, { updated: '1' }), 303);
}

/** The message settings' form: told apart from the profile's other forms by `intent`. */
const MESSAGES = 'messages';
type MessagesResult = FormResult & { form: typeof MESSAGES };

/**
 * The message settings (docs/rules/messages.md#5-the-pages): the form read with `MessageSettingsForm` (a box not ticked
 * is off), then `PUT /api/v1/message-settings/`; back to /profile with a confirmation in the section, or the refusal
 * under its field.
 */
async function saveMessageSettings(form: FormData, context: ActionFunctionArgs['context']) {
  const s = await submit(form, context, {
    schema: MessageSettingsForm,
    call: (api, body) => api.call(contract.setMessageSettings, { body }),
    failed: 'profile:messages.failed',
    fix: key('profile:messages.fix'),
    extra: { form: MESSAGES } as const,
  });
  return s.ok ? redirect(`${withQuery(paths.profile, { saved: MESSAGES })}#${MESSAGES}`, 303) : s.reply;
}

/** The two posts of "Log out everywhere": the first asks (docs/decisions/019-back-office-shell.md), the second ends. */
const END_ALL = 'logout-everywhere';
const END_ALL_CONFIRMED = 'logout-everywhere-confirmed';
type SessionsResult = { sessions: 'confirm' | 'failed' };

/**
 * "Log out everywhere" (docs/rules/accounts-and-codes.md#10-sessions): every session of the account ends at once,
 * this browser's too, which then goes to login with a notice. A session that had already ended goes to login as well.
 */
async function endAllSessions(intent: typeof END_ALL | typeof END_ALL_CONFIRMED, context: ActionFunctionArgs['context']) {
  if (intent === END_ALL) return data<SessionsResult>({ sessions: 'confirm' });
  const api = apiOf(context);
  const r = await api.call(contract.logoutEverywhere);
  if (r.ok || r.status === 401) {
    await api.logout();
    return redirect(
      r.ok ? withQuery(paths.login, { notice: 'loggedOutEverywhere' }) : withQuery(paths.login, { from: paths.profile }),
      303,
    );
  }
  return data<SessionsResult>({ sessions: 'failed' }, { status: pageStatus(r.status) });
}

export function Component() {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const res = useLoaderData<typeof loader>();
  const title = t('pages.profile.title');
  const head = <PageHead title={title} lead={t('pages.profile.subtitle')} />;
  if (!res.profile) {
    return (
      <>
        <Head title={t('title', { page: title })} description={t('pages.profile.subtitle')} />
        {head}
        <div className="container narrow">
          <div className="alert alert--error" role="alert">
            {t(res.error === 'notFound' ? 'pages.profile.notFound' : 'pages.profile.loadError')}
          </div>
          {res.error === 'load' ? (
            <a className="btn btn-ghost btn-sm" href={paths.profile}>
              {t('pages.profile.retry')}
            </a>
          ) : null}
        </div>
      </>
    );
  }
  const p = res.profile;
  const joined = <DateTime value={p.date_joined} lng={lng} invalid={t('errors.invalidDate')} />;
  const missing = <span className="muted">{t('pages.profile.notProvided')}</span>;
  const rows: [string, ReactNode][] = [
    ['email', p.email || missing],
    ['phone', p.phone ? toDigits(p.phone, lng) : missing],
    ['location', p.location || missing],
    ['joined', joined],
  ];
  return (
    <>
      <Head title={t('title', { page: title })} description={t('pages.profile.subtitle')} />
      {head}
      <div className="container narrow">
        {res.updated ? <Notice text={t('profile:edit.updated')} /> : null}
        <section className="profile card" aria-labelledby="profile-name">
          <div className="profile__head">
            {p.picture_url ? (
              <img className="profile__avatar" src={`/bff${p.picture_url}`} alt="" width={72} height={72} />
            ) : (
              <span className="profile__avatar" aria-hidden="true">
                {p.name.trim().slice(0, 1).toUpperCase() || '?'}
              </span>
            )}
            <h2 id="profile-name">
              {p.name} {p.is_staff ? <span className="badge badge--gold">{t('pages.profile.staff')}</span> : null}
            </h2>
          </div>
          <h3 className="visually-hidden">{t('pages.profile.details')}</h3>
          <dl className="profile__list">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{t(`pages.profile.${k}`)}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <p className="profile__actions">
            <Link className="btn btn-primary" to={paths.profileEdit} preventScrollReset>
              {t('profile:edit.open')}
            </Link>
          </p>
        </section>
        <LinkCard id="play-safe-title" title={t('profile:play.title')} lead={t('profile:play.lead')} to={paths.profileLimits}>
          {t('profile:play.open')}
        </LinkCard>
        {/* A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements): its own page. */}
        <LinkCard id="bkash-card-title" title={t('profile:bkash.title')} lead={t('profile:bkash.cardLead')} to={paths.profileBkash}>
          {t('profile:bkash.open')}
        </LinkCard>
        <MessageSettings settings={res.messages} saved={res.messagesSaved} />
        <EndAllSessions />
        {res.editing ? (
          <Dialog id="edit-profile" titleId={EDIT_TITLE_ID} className="profile-dialog" dismissHref={paths.profile}>
            <EditProfileForm profile={p} />
          </Dialog>
        ) : null}
      </div>
    </>
  );
}

/** The Edit Profile form: a plain multipart POST to /profile/edit that works without JavaScript. */
function EditProfileForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('profile');
  const result = useActionData<FormResult>();
  const e = result?.errors ?? {};
  const val = result?.values ?? {};
  const shown = (name: 'name' | 'email' | 'phone'): string =>
    val[name] ?? (name === 'phone' ? (profile.phone ?? '') : (profile[name] ?? ''));
  return (
    <>
      <h2 id={EDIT_TITLE_ID} className="dialog__title">
        {t('edit.title')}
      </h2>
      <p className="dialog__lead">{t('edit.lead')}</p>
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" action={paths.profileEdit} encType="multipart/form-data" noValidate className="form" preventScrollReset>
        <CsrfField />
        <Field label={t('edit.name')} name="name" autoComplete="name" required defaultValue={shown('name')} error={msg(t, e.name)} />
        <Field
          label={t('edit.email')}
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={shown('email')}
          error={msg(t, e.email)}
        />
        <Field
          label={t('edit.phone')}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('edit.phonePlaceholder')}
          defaultValue={shown('phone')}
          error={msg(t, e.phone)}
          hint={t('edit.unconfirmed')}
        />
        <Field
          label={t('edit.picture')}
          name="picture"
          type="file"
          accept={PICTURE_TYPES.join(',')}
          hint={t('edit.pictureHint')}
          error={msg(t, e.picture)}
        />
        <PasswordField label={t('edit.password')} name="password" autoComplete="current-password" required error={msg(t, e.password)} />
        <div className="dialog__actions">
          <Link className="btn btn-ghost" to={paths.profile} preventScrollReset replace>
            {t('edit.cancel')}
          </Link>
          <SubmitButton className="btn btn-primary">{t('edit.save')}</SubmitButton>
        </div>
      </Form>
    </>
  );
}

/**
 * "Log out everywhere": a plain form (no JavaScript needed) whose first post asks, and whose answer carries the real
 * button (docs/rules/accounts-and-codes.md#10-sessions).
 */
function EndAllSessions() {
  const { t } = useTranslation('profile');
  const result = useActionData<SessionsResult | FormResult>();
  const state = result && 'sessions' in result ? result.sessions : null;
  return (
    <section className="card profile-sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <p className="profile__note">{t('sessions.lead')}</p>
      {state === 'failed' ? <Alert kind="error">{t('sessions.failed')}</Alert> : null}
      <Form method="post" action={paths.profile} className="profile__actions" preventScrollReset>
        <CsrfField />
        {state === 'confirm' ? (
          <div className="profile-sessions__confirm" role="alertdialog" aria-labelledby="sessions-confirm">
            <p id="sessions-confirm">{t('sessions.confirm')}</p>
            <div className="dialog__actions">
              <Link className="btn btn-ghost" to={paths.profile} preventScrollReset replace>
                {t('sessions.cancel')}
              </Link>
              <SubmitButton name="intent" value={END_ALL_CONFIRMED} className="btn btn-danger">
                {t('sessions.yes')}
              </SubmitButton>
            </div>
          </div>
        ) : (
          <SubmitButton name="intent" value={END_ALL} className="btn btn-ghost">
            {t('sessions.button')}
          </SubmitButton>
        )}
      </Form>
    </section>
  );
}

/** The section's heading; the section itself is `#messages`, where the notifications page links. */
const MESSAGES_TITLE_ID = 'messages-title';

/**
 * "Messages" (docs/rules/messages.md#5-the-pages): the language of his messages and the two kinds he may switch off, a
 * plain form posting to /profile (works without JavaScript); the kinds about his money cannot be switched off.
 */
function MessageSettings({ settings, saved }: { settings: MessageChoices; saved: boolean }) {
  const { t } = useTranslation('profile');
  const reply = useActionData<MessagesResult | FormResult | SessionsResult>();
  const result = reply && 'form' in reply && reply.form === MESSAGES ? reply : undefined;
  const e = result?.errors ?? {};
  const posted = result?.values;
  const language = posted ? posted.language : settings.language;
  // A refused post shows the boxes as they were sent (a box not ticked is not in the form).
  const ticked = (name: 'claim_reminder' | 'new_lottery') => (posted ? posted[name] === 'on' : settings[name]);
  return (
    <section id={MESSAGES} className="card profile-sessions profile-messages" aria-labelledby={MESSAGES_TITLE_ID}>
      <h2 id={MESSAGES_TITLE_ID}>{t('messages.title')}</h2>
      <p className="profile__note">
        {t('messages.lead')} <Link to={paths.notifications}>{t('messages.open')}</Link>
      </p>
      {saved ? <Notice text={t('messages.saved')} /> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" action={paths.profile} noValidate className="form" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="intent" value={MESSAGES} />
        <fieldset className={e.language ? 'has-error' : undefined} aria-describedby={e.language ? 'messages-language-error' : undefined}>
          <legend>{t('messages.language')}</legend>
          {LANGUAGES.map((l) => (
            <label key={l} className="toggle">
              <input type="radio" name="language" value={l} defaultChecked={language === l} />
              <span lang={l}>{l === 'bn' ? 'বাংলা' : 'English'}</span>
            </label>
          ))}
          {e.language ? (
            <p id="messages-language-error" className="field__error">
              {msg(t, e.language)}
            </p>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>{t('messages.kinds')}</legend>
          <label className="toggle">
            <input type="checkbox" name="claim_reminder" defaultChecked={ticked('claim_reminder')} />
            <span>{t('messages.claimReminder')}</span>
          </label>
          <label className="toggle">
            <input type="checkbox" name="new_lottery" defaultChecked={ticked('new_lottery')} />
            <span>{t('messages.newLottery')}</span>
          </label>
          <p className="field__hint">{t('messages.always')}</p>
        </fieldset>
        <SubmitButton name="intent" value={MESSAGES} className="btn btn-primary">
          {t('messages.save')}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** A card of the profile that leads to a page of its own: its title, what it is about, and the link. */
function LinkCard({ id, title, lead, to, children }: { id: string; title: string; lead: string; to: string; children: ReactNode }) {
  return (
    <section className="card profile-sessions" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="profile__note">{lead}</p>
      <p className="profile__actions">
        <Link className="btn btn-ghost" to={to}>
          {children}
        </Link>
      </p>
    </section>
  );
}
