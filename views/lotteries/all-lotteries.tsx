import {
  Link,
  useLoaderData,
  useNavigate,
  useSearchParams,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { errorText, type Lottery } from '../../shared/api-types.ts';
import { formatNumber } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Dialog } from '../components/dialog.tsx';
import { Head } from '../components/head.tsx';
import { api as contract } from '../../shared/api/contract.ts';
import { useTranslation } from '../i18n.tsx';
import { LotteryCard, toCardLottery } from './lottery-card.tsx';
import { Pager } from './pager.tsx';
import { listHref, pageCount, parsePage } from './paging.ts';
import { PICK_TITLE_ID, PickDialogBody } from './pick-dialog-body.tsx';
import { useIsStaff } from './is-staff.ts';

export const PER_PAGE = 12;
/** The API refuses offsets beyond this; later pages are simply empty. */
const MAX_OFFSET = 1_000_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiOf(context);
  const q = new URL(request.url).searchParams;
  const page = parsePage(q.get('page'));
  const pickRaw = q.get('pick') ?? '';
  const pickId = /^\d{1,9}$/.test(pickRaw) ? Number(pickRaw) : null;
  const offset = (page - 1) * PER_PAGE;
  const r =
    offset > MAX_OFFSET
      ? { ok: true as const, status: 200, data: [] as Lottery[], total: null }
      : await api.call(contract.publishedLotteries, { query: { limit: PER_PAGE, offset } });
  let picked = pickId !== null && r.ok ? (r.data.find((l) => l.id === pickId) ?? null) : null;
  if (pickId !== null && !picked) {
    const p = await api.call(contract.getLottery, { params: { id: String(pickId) } });
    if (p.ok) picked = p.data;
  }
  return {
    now: Date.now(),
    page,
    lotteries: r.ok ? r.data.map(toCardLottery) : null,
    total: r.ok ? (r.total ?? r.data.length) : 0,
    error: r.ok ? null : errorText(r.error, '') || null,
    picked: picked ? toCardLottery(picked) : null,
  };
}

/** Opening or closing the dialog only changes `pick`: the list on screen stays, no new request. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (u: URL) => {
    const q = new URLSearchParams(u.search);
    q.delete('pick');
    return q.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
}

export function Component() {
  const d = useLoaderData<typeof loader>();
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const navigate = useNavigate();
  const staff = useIsStaff();
  const [params] = useSearchParams();
  const pickRaw = params.get('pick');
  const pickId = pickRaw && /^\d{1,9}$/.test(pickRaw) ? Number(pickRaw) : null;
  const picked = pickId === null ? null : (d.lotteries?.find((l) => l.id === pickId) ?? (d.picked?.id === pickId ? d.picked : null));
  const pages = pageCount(d.total, PER_PAGE);
  const here = (page: number, pick?: number | null) => listHref(paths.allLotteries, page, pick);

  return (
    <section className="section all-lotteries">
      <div className="container">
        <Head title={t('common:title', { page: t('all.title') })} description={t('all.intro')} />
        <div className="section__head">
          <div>
            <h1>{t('all.title')}</h1>
            <p className="section__lead">{t('all.intro')}</p>
          </div>
          {d.lotteries && d.total > 0 ? <p className="muted">{t('all.count', { count: d.total, n: formatNumber(d.total, lng) })}</p> : null}
        </div>

        {d.error !== null || !d.lotteries ? (
          <div className="alert alert--error" role="alert">
            {t('common:errors.error', { message: d.error ?? t('home:errors.loadFailed') })}
          </div>
        ) : d.lotteries.length === 0 ? (
          <div className="empty-state empty-state--card">
            <p>{d.total === 0 ? t('all.empty') : t('all.pageEmpty')}</p>
            {d.total > 0 ? (
              <Link className="btn btn-primary" to={here(1)}>
                {t('all.firstPage')}
              </Link>
            ) : null}
          </div>
        ) : (
          <ul className="lottery-grid">
            {d.lotteries.map((l) => (
              <li key={l.id}>
                <LotteryCard
                  heading="h2"
                  lottery={l}
                  now={d.now}
                  pickHref={here(d.page, l.id)}
                  onPick={(e) => {
                    e.preventDefault();
                    navigate(here(d.page, l.id), { preventScrollReset: true });
                  }}
                />
              </li>
            ))}
          </ul>
        )}

        {d.lotteries ? <Pager page={d.page} pages={pages} href={(p) => here(p)} texts="lottery:all" lng={lng} /> : null}

        {picked ? (
          <Dialog id="pick" titleId={PICK_TITLE_ID} className="pick-dialog" dismissHref={here(d.page)}>
            <PickDialogBody
              lottery={picked}
              now={d.now}
              variant="dialog"
              onPlay={(href) => navigate(href)}
              otherHref={here(d.page)}
              staff={staff}
            />
          </Dialog>
        ) : null}
      </div>
    </section>
  );
}
