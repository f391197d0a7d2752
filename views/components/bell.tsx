import { NavLink, useRouteLoaderData } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import type { ApiClient } from '../../shared/api-client.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { paths } from '../../shared/paths.ts';
import { useTranslation } from '../i18n.tsx';

/** The route id of the notifications page (views/routes.tsx), whose loader data the bell reads while it is shown. */
export const NOTIFICATIONS_ROUTE = 'notifications';

/**
 * The bell's count alone, for the root loader of a back-office page (a player's page reads it with the reality check,
 * views/components/reality-check.tsx topBarFor; docs/rules/messages.md#5-the-pages): one indexed count,
 * `GET /api/v1/notifications/unread/`; null when it could not be read (the bell then shows no count).
 */
export async function unreadFor(api: ApiClient): Promise<number | null> {
  const r = await api.call(contract.unreadNotifications);
  return r.ok ? r.data.unread : null;
}

/** A count above this shows as "99+" (the accessible name still says the whole number). */
const MOST_SHOWN = 99;

/**
 * The top bar's bell: a link to /notifications with the unread count as a badge (in the page's digits), named for
 * screen readers "Notifications, 3 unread". On the notifications page itself the count is the one after that page
 * marked its messages read (its loader's), not the root's, which was read at the same time.
 */
export function Bell({ unread, lng }: { unread: number | null; lng: Language }) {
  const { t } = useTranslation();
  const page = useRouteLoaderData(NOTIFICATIONS_ROUTE) as { unread?: unknown } | undefined;
  const count = typeof page?.unread === 'number' ? page.unread : (unread ?? 0);
  const label = count > 0 ? t('nav.notificationsUnread', { n: formatNumber(count, lng) }) : t('nav.notifications');
  return (
    <NavLink to={paths.notifications} className={count > 0 ? 'bell bell--unread' : 'bell'} title={label}>
      <svg className="bell__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 2.5a1.5 1.5 0 0 1 1.5 1.5v.7A6 6 0 0 1 18 10.5v4.3l1.7 2A1 1 0 0 1 19 18.5H5a1 1 0 0 1-.7-1.7l1.7-2v-4.3a6 6 0 0 1 4.5-5.8V4A1.5 1.5 0 0 1 12 2.5Zm-2.4 17h4.8a2.4 2.4 0 0 1-4.8 0Z"
        />
      </svg>
      <span className="visually-hidden">{label}</span>
      {count > 0 ? (
        <span className="bell__count" aria-hidden="true">
          {count > MOST_SHOWN ? `${formatNumber(MOST_SHOWN, lng)}+` : formatNumber(count, lng)}
        </span>
      ) : null}
    </NavLink>
  );
}
