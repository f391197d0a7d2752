import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText } from '../../shared/api-types.ts';
import { EXCLUSION_PERIODS, PERIODS, TIME_OUT_PERIODS } from '../../shared/play-safe/limits.ts';
import { REALITY_INTERVALS } from '../../shared/play-safe/reality.ts';
import { LimitsBody, RealityIntervalBody, SelfExclusionForm, TimeOutForm } from '../../shared/play-safe/schemas.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { pageStatus, submit } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { Head } from '../components/head.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { useRealityTexts, type RealityState } from '../components/reality-check.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';

const NOTICES = ['limits', 'excluded', 'timeOut', 'reality'] as const;
type Saved = (typeof NOTICES)[number];
const isNotice = (s: string | null): s is Saved => (NOTICES as readonly (string | null)[]).includes(s);

/**
 * /profile/limits: the player's spend limits, his breaks — a short time-out and the long self-exclusion, shown apart —
 * (docs/rules/play-safe.md), from GET /api/v1/my-limits/, and his reality check (GET /api/v1/reality-check/).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const api = apiOf(context);
  const [r, rc] = await Promise.all([api.call(contract.myLimits), api.call(contract.realityCheck)]);
  if (r.status === 401 || rc.status === 401) throw redirect(withQuery(paths.login, { from: url.pathname }));
  const saved = url.searchParams.get('saved');
  const notice = isNotice(saved) ? saved : null;
  const reality: RealityState | null = rc.ok ? rc.data : null;
  if (r.ok) return { play: r.data, reality, error: null, notice };
  return data({ play: null, reality, error: errorText(r.error, '') || null, notice: null }, { status: pageStatus(r.status) });
}

const LIMITS = 'limits';
const EXCLUDE = 'exclude';
const REALITY = 'reality';
const TIME_OUT = 'time-out';
type Which = { form: typeof LIMITS | typeof EXCLUDE | typeof REALITY | typeof TIME_OUT };

/**
 * The forms of the page, told apart by `intent`: the limits (PUT /api/v1/my-limits/), the reality check (PUT
 * /api/v1/reality-check/), the time-out (POST /api/v1/time-out/) and the self-exclusion (POST /api/v1/self-exclusion/),
 * these two only with their box ticked. Each read with the API's schema; refusals come back on their form, success
 * goes back to the page with a confirmation.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  if (form.get('intent') === REALITY) {
    const s = await submit(form, context, {
      schema: RealityIntervalBody,
      call: (api, body) => api.call(contract.setRealityCheck, { body }),
      failed: 'profile:play.failed',
      extra: { form: REALITY } satisfies Which,
    });
    return s.ok ? redirect(withQuery(paths.profileLimits, { saved: 'reality' }), 303) : s.reply;
  }
  if (form.get('intent') === TIME_OUT) {
    const s = await submit(form, context, {
      schema: TimeOutForm,
      call: (api, body) => api.call(contract.timeOut, { body }),
      failed: 'profile:play.failed',
      extra: { form: TIME_OUT } satisfies Which,
    });
    return s.ok ? redirect(withQuery(paths.profileLimits, { saved: 'timeOut' }), 303) : s.reply;
  }
  if (form.get('intent') === EXCLUDE) {
    const s = await submit(form, context, {
      schema: SelfExclusionForm,
      call: (api, body) => api.call(contract.selfExclusion, { body }),
      failed: 'profile:play.failed',
      extra: { form: EXCLUDE } satisfies Which,
    });
    return s.ok ? redirect(withQuery(paths.profileLimits, { saved: 'excluded' }), 303) : s.reply;
  }
  const s = await submit(form, context, {
    schema: LimitsBody,
    call: (api, body) => api.call(contract.setMyLimits, { body }),
    failed: 'profile:play.failed',
    fix: key('profile:play.fix'),
    extra: { form: LIMITS } satisfies Which,
  });
  return s.ok ? redirect(withQuery(paths.profileLimits, { saved: 'limits' }), 303) : s.reply;
}

const NOTICE_TEXTS: Record<Saved, string> = {
  limits: 'play.saved',
  excluded: 'play.excludedSaved',
  timeOut: 'play.timeOutSaved',
  reality: 'reality.saved',
};

/**
 * A break's form (docs/rules/play-safe.md#3-self-exclusion, #3a-time-out): how long, the box "I understand this cannot
 * be undone early", and its button. The time-out and the self-exclusion each have one, in their own card.
 */
function BreakForm<P extends string>(p: {
  intent: typeof TIME_OUT | typeof EXCLUDE;
  periods: readonly P[];
  legend: string;
  label: (period: P) => string;
  button: string;
  result: FormResult | undefined;
}) {
  const { t } = useTranslation('profile');
  const e = p.result?.errors ?? {};
  return (
    <>
      {p.result?.formError ? <Alert kind="error">{msg(t, p.result.formError)}</Alert> : null}
      <Form method="post" action={paths.profileLimits} noValidate className="form" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="intent" value={p.intent} />
        <fieldset className={e.period ? 'has-error' : undefined}>
          <legend>{p.legend}</legend>
          {p.periods.map((period) => (
            <label key={period} className="toggle">
              <input type="radio" name="period" value={period} defaultChecked={(p.result?.values?.period ?? p.periods[0]) === period} />
              <span>{p.label(period)}</span>
            </label>
          ))}
          {e.period ? <p className="field__error">{msg(t, e.period)}</p> : null}
        </fieldset>
        <div className={e.confirm ? 'has-error' : undefined}>
          <label className="toggle">
            <input type="checkbox" name="confirm" value="yes" />
            <span>{t('play.understand')}</span>
          </label>
          {e.confirm ? <p className="field__error">{msg(t, e.confirm)}</p> : null}
        </div>
        <SubmitButton className="btn btn-danger">{p.button}</SubmitButton>
      </Form>
    </>
  );
}

/** How often the reality check reminds the player, with this session's time and spending (docs/rules/play-safe.md#7-reality-check). */
function RealityForm({ reality, result }: { reality: RealityState; result: FormResult | undefined }) {
  const { t, i18n } = useTranslation('profile');
  const { played, tickets } = useRealityTexts(reality);
  const chosen = result?.values?.interval_minutes ?? String(reality.interval_minutes);
  const error = result?.errors?.interval_minutes;
  return (
    <section className="card play-safe__reality" aria-labelledby="reality-settings-title">
      <h2 id="reality-settings-title">{t('reality.settingsTitle')}</h2>
      <p className="profile__note">{t('reality.settingsLead')}</p>
      <p>
        {withElements((v) => t('reality.now', { ...v, played, tickets }), { spent: <Amount value={reality.spent} lng={i18n.language} /> })}{' '}
        <Link to={paths.realityCheck}>{t('reality.details')}</Link>
      </p>
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" action={paths.profileLimits} noValidate className="form" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="intent" value={REALITY} />
        <fieldset className={error ? 'has-error' : undefined}>
          <legend>{t('reality.intervalLabel')}</legend>
          {REALITY_INTERVALS.map((n) => (
            <label key={n} className="toggle">
              <input type="radio" name="interval_minutes" value={String(n)} defaultChecked={chosen === String(n)} />
              <span>{t(`reality.intervals.${n}`)}</span>
            </label>
          ))}
          {error ? <p className="field__error">{msg(t, error)}</p> : null}
        </fieldset>
        <SubmitButton className="btn btn-primary">{t('reality.save')}</SubmitButton>
      </Form>
    </section>
  );
}

export function Component() {
  const { t, i18n } = useTranslation('profile');
  const lng = i18n.language;
  const { play, reality, error, notice } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult & Partial<Which>>();
  const title = t('play.title');
  const invalid = t('common:errors.invalidDate');
  const when = (iso: string) => <DateTime value={iso} lng={lng} withTime invalid={invalid} />;
  const taka = (n: number | null) => (n === null ? <span className="muted">{t('play.none')}</span> : <Amount value={n} lng={lng} />);
  const head = (
    <>
      <Head title={t('common:title', { page: title })} description={t('play.lead')} />
      <PageHead title={title} lead={t('play.lead')} />
    </>
  );
  if (!play)
    return (
      <>
        {head}
        <div className="container narrow">
          <Alert kind="error">{error ?? t('play.loadFailed')}</Alert>
        </div>
      </>
    );
  const limitsResult = result?.form === LIMITS ? result : undefined;
  const excludeResult = result?.form === EXCLUDE ? result : undefined;
  const realityResult = result?.form === REALITY ? result : undefined;
  const timeOutResult = result?.form === TIME_OUT ? result : undefined;
  const le = limitsResult?.errors ?? {};
  const ex = play.self_exclusion;
  const off = play.time_out;
  return (
    <>
      {head}
      <div className="container narrow play-safe">
        {notice ? <Notice text={t(NOTICE_TEXTS[notice])} /> : null}
        <p>
          <Link to={paths.profile}>{t('play.back')}</Link> · <Link to={paths.playResponsibly}>{t('play.readMore')}</Link>
        </p>

        {ex ? (
          <Alert kind="info">
            {t('play.excludedUntil')} {when(ex.until)}
          </Alert>
        ) : null}
        {off ? (
          <Alert kind="info">
            {t('play.onTimeOutUntil')} {when(off.until)}
          </Alert>
        ) : null}

        <section className="card play-safe__limits" aria-labelledby="limits-title">
          <h2 id="limits-title">{t('play.limitsTitle')}</h2>
          <p className="profile__note">{t('play.limitsLead')}</p>
          {/* Focusable, so that a keyboard can scroll it on a narrow phone (axe: scrollable-region-focusable). */}
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="limits-title">
            <table className="play-safe__table">
              <thead>
                <tr>
                  <th scope="col">{t('play.period')}</th>
                  <th scope="col">{t('play.limit')}</th>
                  <th scope="col">{t('play.spent')}</th>
                  <th scope="col">{t('play.resets')}</th>
                </tr>
              </thead>
              <tbody>
                {play.periods.map((p) => (
                  <tr key={p.period}>
                    <th scope="row">{t(`play.periods.${p.period}`)}</th>
                    {/* data-label: the column's name, shown beside the value when a phone stacks the rows (views/styles/content.css). */}
                    <td data-label={t('play.limit')}>{taka(p.limit)}</td>
                    <td data-label={t('play.spent')}>
                      <Amount value={p.spent} lng={lng} />
                    </td>
                    <td data-label={t('play.resets')}>{when(p.resets_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {play.pending ? (
            <Alert kind="info">
              {t('play.pending')}
              <ul className="play-safe__pending">
                {PERIODS.map((p) => (
                  <li key={p}>
                    {t(`play.periods.${p}`)}: {taka(play.pending?.limits[p] ?? null)}
                  </li>
                ))}
              </ul>
              {t('play.pendingFrom')} {when(play.pending.effective_at)}
            </Alert>
          ) : null}
          {limitsResult?.formError ? <Alert kind="error">{msg(t, limitsResult.formError)}</Alert> : null}
          <Form method="post" action={paths.profileLimits} noValidate className="form" preventScrollReset>
            <CsrfField />
            <input type="hidden" name="intent" value={LIMITS} />
            {PERIODS.map((p) => (
              <Field
                key={p}
                label={t(`play.limitOf.${p}`)}
                name={p}
                inputMode="numeric"
                autoComplete="off"
                defaultValue={limitsResult?.values?.[p] ?? (play.limits[p] === null ? '' : String(play.limits[p]))}
                error={msg(t, le[p])}
              />
            ))}
            <p className="field__hint">{t('play.limitsHint')}</p>
            <SubmitButton className="btn btn-primary">{t('play.save')}</SubmitButton>
          </Form>
        </section>

        {reality ? <RealityForm reality={reality} result={realityResult} /> : null}

        <section className="card play-safe__time-out" aria-labelledby="time-out-title">
          <h2 id="time-out-title">{t('play.timeOutTitle')}</h2>
          <p className="profile__note">{t('play.timeOutLead')}</p>
          <BreakForm
            intent={TIME_OUT}
            periods={TIME_OUT_PERIODS}
            legend={t(off ? 'play.extendTimeOutFor' : 'play.timeOutFor')}
            label={(p) => t(`play.timeOutPeriods.${p}`)}
            button={t('play.timeOutButton')}
            result={timeOutResult}
          />
        </section>

        <section className="card play-safe__exclusion" aria-labelledby="exclusion-title">
          <h2 id="exclusion-title">{t('play.exclusionTitle')}</h2>
          <p className="profile__note">{t('play.exclusionLead')}</p>
          <BreakForm
            intent={EXCLUDE}
            periods={EXCLUSION_PERIODS}
            legend={t(ex ? 'play.extendFor' : 'play.excludeFor')}
            label={(p) => t(`play.exclusionPeriods.${p}`)}
            button={t('play.excludeButton')}
            result={excludeResult}
          />
        </section>
      </div>
    </>
  );
}
