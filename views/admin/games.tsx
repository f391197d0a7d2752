import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { calendarText, gameName, type GameRow } from './game-form.tsx';
import { AdminCards, adminHref, AdminPageHead, AdminResults, Fact, listData, listPlace } from './list.tsx';

export const PER_PAGE = 20;

/** A game of the list, with its next draw not drawn yet (null: none) and how many are on sale, as the API reads them. */
type Item = GameRow;

/**
 * /admin/games (docs/rules/games.md#1-the-game): every game, active ones first, paged by the server (GET /api/v1/games/),
 * each with its next draw (a game's draws are its lotteries: the calendar may have changed since they were put on sale,
 * so the server reads the next one, it is not computed from the calendar).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, limit, offset } = listPlace(new URL(request.url), PER_PAGE);
  const api = apiOf(context);
  const r = await api.call(contract.staffGames, { query: { limit, offset } });
  return listData(r, page);
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('games.title') })} description={t('games.lead')} />
      <AdminPageHead title={t('games.title')} lead={t('games.lead')} action={{ to: adminPaths.newGame, label: t('games.create') }} />
      <AdminResults d={d} perPage={PER_PAGE} href={(p) => adminHref(adminPaths.games, {}, p)} empty={t('games.empty')}>
        {(items) => <AdminCards items={items} card={(g) => <GameCard g={g} lng={lng} />} />}
      </AdminResults>
    </section>
  );
}

function GameCard({ g, lng }: { g: Item; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <article className="card admin-card game-card" aria-labelledby={`game-${g.id}`}>
      <header className="admin-card__head">
        <h2 id={`game-${g.id}`}>
          <Link to={adminPaths.game(g.id)}>{gameName(g, lng)}</Link>
        </h2>
        <div className="admin-card__badges">
          <span className={`badge ${g.active ? 'badge--success' : 'badge--muted'}`}>
            {g.active ? t('games.active') : t('games.paused')}
          </span>
        </div>
      </header>
      <dl className="admin-card__facts">
        <Fact label={t('games.calendar')}>{calendarText(t, lng, g.draw_days, g.draw_time)}</Fact>
        <Fact label={t('games.price')}>
          <Amount value={g.ticket_price} lng={lng} />
        </Fact>
        <Fact label={t('games.nextDraw')}>
          {g.next_draw ? <DateTime value={g.next_draw} lng={lng} withTime invalid={t('common:errors.invalidDate')} /> : t('games.noDraw')}
        </Fact>
        <Fact label={t('games.onSale')}>{formatNumber(g.draws_on_sale, lng)}</Fact>
      </dl>
      <div className="admin-card__actions">
        <Link className="btn btn-primary btn-sm" to={adminPaths.game(g.id)} aria-describedby={`game-${g.id}`}>
          {t('games.open')}
        </Link>
      </div>
    </article>
  );
}
