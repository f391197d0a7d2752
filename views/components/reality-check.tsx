import { useEffect, useState } from 'react';
import { Form, Link, useFetcher, useLocation } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import type { Reply } from '../../shared/api/endpoint.ts';
import type { ApiClient } from '../../shared/api-client.ts';
import { isStaffPath, paths } from '../../shared/paths.ts';
import type { CountText } from '../../shared/i18n.ts';
import { formatPlayTime, formatTickets } from '../../shared/play-safe/reality.ts';
import { useTranslation } from '../i18n.tsx';
import { unreadFor } from './bell.tsx';
import { useRootData } from '../root.tsx';
import { CsrfField } from './csrf-field.tsx';
import { LogoutForm } from './logout-form.tsx';
import { Dialog } from './dialog.tsx';
import { SubmitButton } from './form.tsx';
import { Amount, withElements } from './nowrap.tsx';
import { useHydrated } from './use-hydrated.ts';

/** The caller's session as the reality check sees it (GET /api/v1/reality-check/). */
export type RealityState = Reply<typeof contract.realityCheck>;

/**
 * The top bar's reads for the root loader of a logged-in user's page, in one call: the reality check
 * (docs/rules/play-safe.md#7-reality-check) and the bell's count (docs/rules/messages.md#5-the-pages),
 * `GET /api/v1/top-bar/`. The back office's pages never show the reality check: they ask the count alone. Either is
 * null when it could not be read (the bell then shows no count, the reminder does not show).
 */
export async function topBarFor(api: ApiClient, request: Request): Promise<{ reality: RealityState | null; unread: number | null }> {
  if (isStaffPath(new URL(request.url).pathname)) return { reality: null, unread: await unreadFor(api) };
  const r = await api.call(contract.topBar);
  return r.ok ? r.data : { reality: null, unread: null };
}

/** How long the session has lasted and how many tickets, in the page's language and digits. */
export function useRealityTexts(reality: RealityState): { played: string; tickets: string } {
  const { t, i18n } = useTranslation('profile');
  const count: CountText = (key, opts) => t(key, opts);
  return {
    played: formatPlayTime(reality.minutes_played, i18n.language, count),
    tickets: formatTickets(reality.tickets, i18n.language, count),
  };
}

/**
 * The reminder: how long the session has lasted, what was spent in it on how many tickets, and the three choices —
 * "Continue playing" (a plain form post to /reality-check, which acknowledges it and comes back to `from`), "See my
 * limits", "Log out" (the top bar's logout form). Works without JavaScript.
 */
export function RealityReminder({
  reality,
  from,
  titleId,
  heading = true,
}: {
  reality: RealityState;
  from: string;
  titleId: string;
  /** false: its title is not a heading (above a page's h1, where a heading would come before the page's own). */
  heading?: boolean;
}) {
  const { t, i18n } = useTranslation('profile');
  const { played, tickets } = useRealityTexts(reality);
  return (
    <>
      {heading ? (
        <h2 id={titleId} className="dialog__title">
          {t('reality.title')}
        </h2>
      ) : (
        <p id={titleId} className="reality-check__title">
          <strong>{t('reality.title')}</strong>
        </p>
      )}
      <p>{t('reality.lead', { played })}</p>
      <p>{withElements((v) => t('reality.spent', { ...v, tickets }), { spent: <Amount value={reality.spent} lng={i18n.language} /> })}</p>
      <p>{t('reality.question')}</p>
      <div className="reality-check__actions">
        <Form method="post" action={paths.realityCheck} className="inline-form">
          <CsrfField />
          <input type="hidden" name="from" value={from} />
          <SubmitButton className="btn btn-primary">{t('reality.continue')}</SubmitButton>
        </Form>
        <Link className="btn btn-ghost" to={paths.profileLimits}>
          {t('reality.limits')}
        </Link>
        <LogoutForm className="btn btn-ghost">{t('reality.logout')}</LogoutForm>
      </div>
    </>
  );
}

/** A reminder's time as the browser's clock may read it: never sooner than this, never later than a timer can wait. */
const MIN_WAIT_MS = 30_000;
const MAX_WAIT_MS = 2 ** 31 - 1;

const TITLE_ID = 'reality-check-title';
const DIALOG_ID = 'reality-check-dialog';

/**
 * The reminder on every page a logged-in user opens while one is due (the root's), except the back office's and the
 * reality check's own page. Server-rendered at the top of the page, so it works without JavaScript; once the page
 * has hydrated it is a modal dialog instead (on /profile/limits it stays in the page, where "See my limits" leads);
 * only its three choices close it, and should the browser close it all the same (Escape before any click, a back
 * gesture) it goes back into the page. With JavaScript a reminder that falls due while the page is open is asked for
 * when its time comes.
 */
export function RealityCheck() {
  const { user, reality } = useRootData();
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ reality: RealityState | null }>();
  // The state read by the timer, for the root's state it was read against: a newer root state (after any form post,
  // "Continue playing" too) replaces it.
  const [readFor, setReadFor] = useState<RealityState | null>(null);
  const read = fetcher.data?.reality;
  const current = read && readFor === reality ? read : reality;
  const dueAt = current && !current.due && current.due_at ? Date.parse(current.due_at) : null;
  const { load } = fetcher;
  useEffect(() => {
    if (dueAt === null || Number.isNaN(dueAt)) return;
    const wait = Math.min(Math.max(dueAt - Date.now(), MIN_WAIT_MS), MAX_WAIT_MS);
    const id = window.setTimeout(() => {
      setReadFor(reality);
      void load(paths.realityCheck);
    }, wait);
    return () => window.clearTimeout(id);
  }, [dueAt, reality, read, load]);

  const path = location.pathname;
  const shown = !!user && !!current?.due && !isStaffPath(path) && path !== paths.realityCheck;
  const modal = shown && hydrated && path !== paths.profileLimits;
  // The reminder the browser closed (not by one of its choices): shown in the page from then on.
  const [closedOn, setClosedOn] = useState<RealityState | null>(null);
  useEffect(() => {
    const d = modal ? document.getElementById(DIALOG_ID) : null;
    if (!(d instanceof HTMLDialogElement)) return;
    // The dialog closes once when it is made modal (components/modal-dialog.tsx): then it is open again at once.
    const closed = () => {
      if (!d.open) setClosedOn(current);
    };
    d.addEventListener('close', closed);
    return () => d.removeEventListener('close', closed);
  }, [modal, current]);

  if (!shown || !current) return null;
  const from = path + location.search;
  if (!modal || closedOn === current)
    return (
      <section className="reality-check" aria-labelledby={TITLE_ID}>
        <div className="container narrow">
          <div className="card reality-check__card">
            <RealityReminder reality={current} from={from} titleId={TITLE_ID} heading={false} />
          </div>
        </div>
      </section>
    );
  return (
    <Dialog id={DIALOG_ID} titleId={TITLE_ID} className="reality-check__dialog">
      <RealityReminder reality={current} from={from} titleId={TITLE_ID} />
    </Dialog>
  );
}
