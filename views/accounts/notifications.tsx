import { data, Link, redirect, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText } from '../../shared/api-types.ts';
import type { Notification } from '../../shared/messages/schemas.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { PushSettingsForm } from '../../shared/push/schemas.ts';
import { pageStatus, submit } from '../components/action.ts';
import { key } from '../components/messages.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { apiOf, localeOf } from '../context.ts';
import { useTranslation, WithTexts } from '../i18n.tsx';
import { Pager } from '../lotteries/pager.tsx';
import { PUSH, PUSH_SECTION, PushSection, type PushChoices, type PushDeviceResult } from './push-device.tsx';
import { pageCount, parsePage } from '../lotteries/paging.ts';

/** Messages a page (docs/rules/messages.md#5-the-pages). */
export const PER_PAGE = 20;
/** The last page the API can answer (its `offset` is at most 1,000,000). */
const LAST_PAGE = Math.floor(1_000_000 / PER_PAGE);

type Item = z.output<typeof Notification>;

/** The address of a page of the list (page 1 is the plain address). */
const pageHref = (page: number): string => withQuery(paths.notifications, { page: page > 1 ? String(page) : null });

/**
 * /notifications: the player's messages, newest first, 20 a page (`GET /api/v1/notifications/`), in his language.
 * Opening a page marks the messages it shows read (`POST /api/v1/notifications/read/` up to the newest shown), after
 * they were read: the page still marks those that were new, and `unread` is the bell's count after it.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const page = parsePage(url.searchParams.get('page'), LAST_PAGE);
  const api = apiOf(context);
  const [all, r, p] = await Promise.all([
    localeOf(context).namespace('messages'),
    api.call(contract.notifications, { query: { limit: PER_PAGE, offset: (page - 1) * PER_PAGE } }),
    api.call(contract.pushSettings),
  ]);
  // Push to his devices (docs/rules/messages.md#6-push-notifications): the section shows only where the server sends it.
  const push: PushChoices | null = p.ok && p.data.public_key ? p.data : null;
  const pushSaved = url.searchParams.get('saved') === PUSH.settings;
  // The kinds' texts are rendered by the API: the page carries only its own.
  const texts = Object.fromEntries(Object.entries(all).filter(([k]) => k !== 'kinds'));
  if (r.status === 401) throw redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  if (!r.ok)
    return data(
      { texts, page, items: null, total: 0, unread: null, error: errorText(r.error, '') || null, push, pushSaved },
      { status: pageStatus(r.status) },
    );
  let unread = r.data.unread;
  const newest = r.data.items[0];
  if (newest && r.data.items.some((m) => !m.read)) {
    const read = await api.call(contract.readNotifications, { body: { up_to: newest.id } });
    if (read.ok) unread = read.data.unread;
  }
  return { texts, page, items: r.data.items, total: r.data.total, unread, error: null, push, pushSaved };
}

/**
 * The posts of "Notifications on this device" (docs/rules/messages.md#6-push-notifications): the kinds he wants pushed
 * (a plain form, `PUT /api/v1/push-settings/`, back to the section with a confirmation), and the switch's subscription
 * of this browser and its removal, which only JavaScript sends (`POST /api/v1/push-subscriptions/`, `…/remove/`).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const api = apiOf(context);
  if (intent === PUSH.subscribe) {
    const label = field('label');
    const r = await api.call(contract.subscribePush, {
      body: { endpoint: field('endpoint'), keys: { p256dh: field('p256dh'), auth: field('auth') }, ...(label ? { label } : {}) },
    });
    return data<PushDeviceResult>({ push: r.ok ? 'subscribed' : 'failed' }, { status: r.ok ? 200 : pageStatus(r.status) });
  }
  if (intent === PUSH.unsubscribe) {
    const r = await api.call(contract.unsubscribePush, { body: { endpoint: field('endpoint') } });
    // A device the server had already forgotten is off all the same.
    const off = r.ok || r.error.code === 'push_subscription_not_found';
    return data<PushDeviceResult>({ push: off ? 'unsubscribed' : 'failed' }, { status: off ? 200 : pageStatus(r.status) });
  }
  const s = await submit(form, context, {
    schema: PushSettingsForm,
    call: (client, body) => client.call(contract.setPushSettings, { body }),
    failed: 'messages:push.saveFailed',
    fix: key('messages:push.saveFailed'),
    extra: { form: PUSH.settings } as const,
  });
  return s.ok ? redirect(`${withQuery(paths.notifications, { saved: PUSH.settings })}#${PUSH_SECTION}`, 303) : s.reply;
}

export function Component() {
  const { texts } = useLoaderData<typeof loader>();
  return (
    <WithTexts ns="messages" texts={texts}>
      <NotificationsPage />
    </WithTexts>
  );
}

function NotificationsPage() {
  const d = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation('messages');
  const lng = i18n.language;
  const title = t('title');
  return (
    <>
      <Head title={t('common:title', { page: title })} description={t('lead')} />
      <PageHead title={title} lead={t('lead')} />
      <div className="container narrow notifications">
        <p className="notifications__settings">
          {t('settingsLead')} <Link to={`${paths.profile}#messages`}>{t('settings')}</Link>
        </p>
        {d.error !== null || !d.items ? (
          <Alert kind="error">{d.error ?? t('loadFailed')}</Alert>
        ) : d.items.length === 0 ? (
          <div className="empty-state empty-state--card">
            {d.total > 0 ? (
              <>
                <p>{t('pageEmpty')}</p>
                <Link className="btn btn-primary" to={paths.notifications}>
                  {t('firstPage')}
                </Link>
              </>
            ) : (
              <>
                <p className="empty-state__title">{t('empty')}</p>
                <p>{t('emptyText')}</p>
              </>
            )}
          </div>
        ) : (
          <section aria-labelledby="notifications-list-title">
            <h2 id="notifications-list-title" className="visually-hidden">
              {t('listLabel')}
            </h2>
            <ol className="notifications__list">
              {d.items.map((m) => (
                <li key={m.id}>
                  <Message m={m} />
                </li>
              ))}
            </ol>
          </section>
        )}
        {d.items ? <Pager page={d.page} pages={pageCount(d.total, PER_PAGE)} href={pageHref} texts="messages:pager" lng={lng} /> : null}
        {d.push ? <PushSection settings={d.push} saved={d.pushSaved} /> : null}
      </div>
    </>
  );
}

/** One message: its title (bold with a dot while unread, "New" for screen readers), its text, its time, its link. */
function Message({ m }: { m: Item }) {
  const { t, i18n } = useTranslation('messages');
  const fresh = !m.read;
  const id = `message-${m.id}`;
  return (
    <article className={fresh ? 'message is-unread' : 'message'} aria-labelledby={id}>
      <h3 id={id} className="message__title">
        {fresh ? (
          <>
            <span className="message__dot" aria-hidden="true" />
            <span className="visually-hidden">{t('new')}: </span>
          </>
        ) : null}
        {m.title}
      </h3>
      <p className="message__text">{m.text}</p>
      <p className="message__meta">
        <time dateTime={m.created_at}>
          <DateTime value={m.created_at} lng={i18n.language} withTime invalid={t('common:errors.invalidDate')} />
        </time>
        <Link className="message__open" to={m.link}>
          {t('open')}
          <span className="visually-hidden">: {m.title}</span>
        </Link>
      </p>
    </article>
  );
}
