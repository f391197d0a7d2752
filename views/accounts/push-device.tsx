/**
 * "Notifications on this device" on /notifications (docs/rules/messages.md#6-push-notifications): the switch that
 * subscribes this browser to the player's pushes (JavaScript by nature: without it a sentence says so), and the kinds
 * he wants pushed, a plain form that works without JavaScript.
 */
import { useEffect, useState } from 'react';
import { Form, useActionData, useFetcher } from 'react-router';
import type { Reply } from '../../shared/api/endpoint.ts';
import type { api as contract } from '../../shared/api/contract.ts';
import { toDigits } from '../../shared/dates.ts';
import { PUSH_KINDS } from '../../shared/push/kinds.ts';
import { paths } from '../../shared/paths.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { Notice } from '../components/toast.tsx';
import { useHydrated } from '../components/use-hydrated.ts';
import { useTranslation } from '../i18n.tsx';

export type PushChoices = Reply<typeof contract.pushSettings>;

/** The forms of the section, told apart from each other by `intent`. */
export const PUSH = { settings: 'push', subscribe: 'push-subscribe', unsubscribe: 'push-unsubscribe' } as const;
/** What the page's action answers to the switch's posts. */
export type PushDeviceResult = { push: 'subscribed' | 'unsubscribed' | 'failed' };
export type PushFormResult = FormResult & { form: typeof PUSH.settings };

/** The section's id: `?saved=push#push` comes back to it. */
export const PUSH_SECTION = 'push';

type DeviceState = 'checking' | 'unsupported' | 'blocked' | 'on' | 'off' | 'working';

/** How long the page waits for the service worker before it says the browser cannot receive notifications. */
const READY_WAIT_MS = 5_000;

/** The service worker's registration, when this browser can receive pushes at all (null when it cannot). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return null;
  const wait = new Promise<null>((resolve) => window.setTimeout(() => resolve(null), READY_WAIT_MS));
  return Promise.race([navigator.serviceWorker.ready, wait]);
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export function PushSection({ settings, saved }: { settings: PushChoices; saved: boolean }) {
  const { t, i18n } = useTranslation('messages');
  return (
    <section id={PUSH_SECTION} className="card notifications__push" aria-labelledby="push-title">
      <h2 id="push-title">{t('push.title')}</h2>
      <p className="notifications__push-lead">{t('push.lead')}</p>
      {settings.public_key ? <PushSwitch publicKey={settings.public_key} /> : null}
      <p className="field__hint">{t('push.devices', { n: toDigits(String(settings.devices), i18n.language) })}</p>
      <PushKinds settings={settings} saved={saved} />
    </section>
  );
}

/** The switch of this device: a sentence without JavaScript, then what the browser allows. */
function PushSwitch({ publicKey }: { publicKey: string }) {
  const { t } = useTranslation('messages');
  const hydrated = useHydrated();
  const fetcher = useFetcher<PushDeviceResult>();
  const [state, setState] = useState<DeviceState>('checking');
  const [error, setError] = useState<'failed' | 'offFailed' | null>(null);

  useEffect(() => {
    if (!hydrated) return;
    let live = true;
    void (async () => {
      const reg = await registration();
      const next: DeviceState = !reg
        ? 'unsupported'
        : Notification.permission === 'denied'
          ? 'blocked'
          : (await reg.pushManager.getSubscription().catch(() => null))
            ? 'on'
            : 'off';
      if (live) setState(next);
    })();
    return () => {
      live = false;
    };
  }, [hydrated]);

  // The page's answer to a post of the switch, taken in once when it arrives (state adjusted while rendering).
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  const [seen, setSeen] = useState(answer);
  if (answer !== seen) {
    setSeen(answer);
    if (answer?.push === 'subscribed') setState('on');
    else if (answer?.push === 'unsubscribed') setState('off');
    else if (answer?.push === 'failed') {
      setError('failed');
      setState('off');
    }
  }

  if (!hydrated) return <p className="notifications__push-state">{t('push.noScript')}</p>;

  async function turnOn() {
    setError(null);
    setState('working');
    try {
      const reg = await registration();
      if (!reg) return setState('unsupported');
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return setState(permission === 'denied' ? 'blocked' : 'off');
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const json = sub.toJSON();
      await fetcher.submit(
        {
          intent: PUSH.subscribe,
          endpoint: json.endpoint ?? '',
          p256dh: json.keys?.p256dh ?? '',
          auth: json.keys?.auth ?? '',
          label: navigator.userAgent.slice(0, 100),
        },
        { method: 'post', action: paths.notifications, preventScrollReset: true },
      );
    } catch {
      setError('failed');
      setState('off');
    }
  }

  async function turnOff() {
    setError(null);
    setState('working');
    try {
      const reg = await registration();
      const sub = reg ? await reg.pushManager.getSubscription() : null;
      if (!sub) return setState('off');
      const endpoint = sub.endpoint;
      await sub.unsubscribe();
      await fetcher.submit(
        { intent: PUSH.unsubscribe, endpoint },
        { method: 'post', action: paths.notifications, preventScrollReset: true },
      );
    } catch {
      setError('offFailed');
      setState('on');
    }
  }

  const busy = state === 'working' || state === 'checking' || fetcher.state !== 'idle';
  return (
    <div className="notifications__push-switch">
      {error ? <Alert kind="error">{t(`push.${error}`)}</Alert> : null}
      <p className="notifications__push-state" role="status">
        {busy ? t(state === 'checking' ? 'push.checking' : 'push.working') : t(`push.${state}`)}
      </p>
      {state === 'off' || state === 'on' || state === 'working' ? (
        <button
          type="button"
          className={state === 'on' ? 'btn btn-ghost' : 'btn btn-primary'}
          disabled={busy}
          onClick={() => void (state === 'on' ? turnOff() : turnOn())}
        >
          {t(state === 'on' ? 'push.turnOff' : 'push.turnOn')}
        </button>
      ) : null}
    </div>
  );
}

/** The kinds he wants pushed: two boxes (a box not ticked is off), a plain form posting to /notifications. */
function PushKinds({ settings, saved }: { settings: PushChoices; saved: boolean }) {
  const { t } = useTranslation('messages');
  const reply = useActionData<PushFormResult | FormResult>();
  const result = reply && 'form' in reply && reply.form === PUSH.settings ? reply : undefined;
  const posted = result?.values;
  const ticked = (name: 'results' | 'confirmations') => (posted ? posted[name] === 'on' : settings[name]);
  return (
    <>
      {saved ? <Notice text={t('push.saved')} /> : null}
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" action={paths.notifications} noValidate className="form" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="intent" value={PUSH.settings} />
        <fieldset>
          <legend>{t('push.kinds')}</legend>
          {PUSH_KINDS.map((k) => (
            <label key={k} className="toggle">
              <input type="checkbox" name={k} defaultChecked={ticked(k)} />
              <span>{t(`push.${k}`)}</span>
            </label>
          ))}
        </fieldset>
        <SubmitButton name="intent" value={PUSH.settings} className="btn btn-primary">
          {t('push.save')}
        </SubmitButton>
      </Form>
    </>
  );
}
