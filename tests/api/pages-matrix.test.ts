/**
 * The authorization matrix of the pages (docs/rules/pages.md, views/guards.ts), generated from the route tree: every
 * page (tests/helpers/site-pages.ts; a route without a sample address fails there) × a visitor, a player and staff,
 * as a browser without JavaScript opens it. Public pages are never refused (some send on or say 400 by their own
 * rules when their address lacks what they need); login and registration send a logged-in
 * user on; a player's pages send a visitor to log in; the back office sends visitors and players to log in. A
 * player's own payment and prize pages show player B nothing of player A's.
 */
import request from 'supertest';
import { paths } from '../../shared/paths.ts';
import type { Agent } from '../helpers/session.ts';
import { sitePages, type Group } from '../helpers/site-pages.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { buyOnPage, insertLottery } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';

type Role = 'visitor' | 'player' | 'staff';

let t: TestApp;
let lottery: number;
const agents: Partial<Record<Role | 'playerB', Agent>> = {};

beforeAll(async () => {
  t = await startTestApp();
  lottery = await insertLottery(t, { name: 'Pages Draw' });
  agents.visitor = request.agent(t.url);
  agents.visitor.set('Cookie', 'lang=en');
  agents.player = (await pageAccount(t, { name: 'Page Player A' })).agent;
  agents.playerB = (await pageAccount(t, { name: 'Page Player B' })).agent;
  agents.staff = (await pageAccount(t, { name: 'Page Officer', is_staff: true })).agent;
});
afterAll(() => t.close());
beforeEach(() => t.db.query('DELETE FROM rate_limits'));

/** What each group's page answers each role: shown (200, or 404 for a sample that names nothing), or a redirect. */
const expected = (group: Group, role: Role): 'shown' | 'login' | 'on' => {
  if (group === 'public') return 'shown';
  if (group === 'guest') return role === 'visitor' ? 'shown' : 'on';
  if (group === 'player') return role === 'visitor' ? 'login' : 'shown';
  return role === 'staff' ? 'shown' : 'login';
};

const pages = sitePages();

test('the matrix covers every group of pages', () => {
  expect(new Set(pages.map((p) => p.group))).toEqual(new Set(['public', 'guest', 'player', 'staff']));
});

describe.each(['visitor', 'player', 'staff'] as const)('as %s', (role) => {
  test.each(pages.map((p) => [p.route, p] as const))('%s', async (_route, p) => {
    const path = p.path(lottery);
    const r = await (agents[role] as Agent).get(path).redirects(0);
    const want = expected(p.group, role);
    const location = String(r.headers.location ?? '');
    if (want === 'shown') {
      // Not refused: the page, or what its own rules answer (a catch-all or a sample naming nothing says so with 404,
      // an address without what it needs sends on or says 400) — never to login, never an error of ours.
      const refused = r.status >= 500 || (r.status >= 300 && r.status < 400 && location.startsWith(paths.login));
      expect({ path, status: r.status, location, refused }).toEqual({ path, status: r.status, location, refused: false });
    } else if (want === 'login') {
      expect({ path, status: r.status, location }).toEqual({
        path,
        status: 303,
        location: `${paths.login}?from=${encodeURIComponent(path)}`,
      });
    } else {
      expect({ path, status: r.status }).toEqual({ path, status: 303 });
      expect(location).not.toMatch(/^\/login/);
    }
  });
});

test("player B opens player A's payment page and sees nothing of it", async () => {
  const a = agents.player as Agent;
  const bought = await buyOnPage(a, lottery, '05-12-23-34-45-07');
  expect(bought.status).toBe(303);
  const page = String(bought.headers.location);
  expect(page).toMatch(/^\/payment\/\d+$/);
  const mine = await a.get(page).expect(200);
  expect(mine.text).toContain('05-12-23-34-45-07');
  const theirs = await (agents.playerB as Agent).get(page);
  expect(theirs.status).toBe(404);
  expect(theirs.text).not.toContain('05-12-23-34-45-07');
});
