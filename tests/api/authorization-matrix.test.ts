/**
 * The authorization matrix of the API (docs/rules/security.md#1-the-api-enforces-every-permission), generated from
 * the route table: every endpoint of shared/api/contract.ts × anonymous, player A, player B, staff and a superuser.
 * Each endpoint has an entry below saying who may call it — a new endpoint without one fails the first test — and
 * the entries that name something of player A's (his purchase, his picture, his prize) are checked object by object:
 * A reads it, B gets the same 404 as for nothing, and what B sends changes nothing.
 *
 * "May call" means the API does not refuse the caller for who he is (no 401, no 403): with the empty or made-up
 * input sent here the answer is then a 2xx, a 400 for the input, a 404 or a 409 of the rules. Refused means 401
 * `not_authenticated` without a login, 403 `permission_denied` for a player on a staff endpoint and for staff on a
 * superuser's action.
 */
import request from 'supertest';
import { api as contract } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { buy, insertLottery, purchase } from './purchase-fixtures.ts';

/** `player`: a user endpoint staff are refused (403 `staff_cannot_play`: staff do not play, accounts-and-codes.md#12-staff-and-superusers). */
type Access = 'public' | 'user' | 'player' | 'staff' | 'superuser';
type Role = 'anonymous' | 'playerA' | 'playerB' | 'staff' | 'superuser';
/** Something of player A's an address names: its id goes into the path, and B must not reach it. */
type Owned = 'transaction' | 'prize' | 'upload' | 'user';
type Rule = {
  access: Access;
  /** The path's id names this object of player A's. */
  owned?: Owned;
  /** Who reads player A's object (`owned` GETs): A always; staff when they see everyone's. */
  staffSees?: boolean;
  /**
   * What player B gets for player A's object: 404 `not_found` (as for nothing) unless told 403 `permission_denied`,
   * given before the object is looked for (so it says no more of what exists than the 404 would).
   */
  othersGet?: 403;
  /** Body of the call (JSON); `{}` when not given. */
  body?: unknown;
};

/** Who may call each endpoint. An endpoint of the contract missing here, or an entry for none, fails the test. */
const MATRIX: Record<keyof typeof contract, Rule> = {
  login: { access: 'public' },
  refresh: { access: 'public' },
  logout: { access: 'public' },
  logoutEverywhere: { access: 'user' },
  signup: { access: 'public' },
  verifyAccount: { access: 'public' },
  resendAccountCode: { access: 'public' },
  forgotPassword: { access: 'public' },
  resendResetCode: { access: 'public' },
  resetPassword: { access: 'public' },
  me: { access: 'user' },
  getUser: { access: 'user', owned: 'user', staffSees: true, othersGet: 403 },
  updateProfile: { access: 'user' },
  myIdentity: { access: 'user' },
  saveIdentity: { access: 'user' },
  userIdentity: { access: 'staff', owned: 'user' },
  myLimits: { access: 'user' },
  setMyLimits: { access: 'user' },
  selfExclusion: { access: 'user' },
  timeOut: { access: 'user' },
  userPlayLimits: { access: 'staff', owned: 'user' },
  realityCheck: { access: 'user' },
  topBar: { access: 'user' },
  acknowledgeRealityCheck: { access: 'user' },
  setRealityCheck: { access: 'user' },
  staffUsers: { access: 'staff' },
  createUser: { access: 'superuser', body: { name: 'New Officer', phone: '01599999999', password: 'officer-pass-1', is_staff: true } },
  staffUser: { access: 'staff', owned: 'user' },
  updateUser: { access: 'staff', owned: 'user' },
  notifications: { access: 'user' },
  unreadNotifications: { access: 'user' },
  readNotifications: { access: 'user' },
  messageSettings: { access: 'user' },
  myProfile: { access: 'user' },
  setMessageSettings: { access: 'user' },
  pushSettings: { access: 'user' },
  setPushSettings: { access: 'user' },
  subscribePush: { access: 'user' },
  unsubscribePush: { access: 'user' },
  publishedLotteries: { access: 'public' },
  featuredLotteries: { access: 'public' },
  lotteryResults: { access: 'public' },
  getLottery: { access: 'public' },
  resultsArchive: { access: 'public' },
  checkNumbers: { access: 'public' },
  numberFrequency: { access: 'public' },
  staffLotteries: { access: 'staff' },
  createLottery: { access: 'staff' },
  staffLottery: { access: 'staff' },
  updateLottery: { access: 'staff' },
  staffGames: { access: 'staff' },
  createGame: { access: 'staff' },
  staffGame: { access: 'staff' },
  staffGameStats: { access: 'staff' },
  updateGame: { access: 'staff' },
  createRun: { access: 'player', body: { game_id: 999999, draws: 1, lines: ['01-02-03-04-05-06'] } },
  getRun: { access: 'user' },
  dashboard: { access: 'staff' },
  auditLog: { access: 'superuser' },
  deliveries: { access: 'staff' },
  drawProof: { access: 'public' },
  setDrawBeacon: { access: 'staff' },
  verifiableDraw: { access: 'staff' },
  // A body that parses: staff are refused by the rule, not by the input (a player then gets the sale's own answer).
  createTransaction: { access: 'player', body: { lottery_id: 999999, ticket: '01-02-03-04-05-06', amount: 100, payment_method: 'bkash' } },
  setTrxId: { access: 'player', owned: 'transaction', body: { trx_id: 'ZZ12345678' } },
  startCheckout: { access: 'player', owned: 'transaction' },
  bkashCallback: { access: 'public' },
  myBkashAgreement: { access: 'user' },
  startBkashAgreement: { access: 'player', body: { transaction_id: 999999 } },
  bkashAgreementCallback: { access: 'public' },
  cancelBkashAgreement: { access: 'user' },
  uploadStatement: { access: 'staff' },
  statements: { access: 'staff' },
  statement: { access: 'staff' },
  confirmStatement: { access: 'staff' },
  discardStatement: { access: 'staff' },
  resolveStatementRow: { access: 'staff' },
  flaggedPurchases: { access: 'staff' },
  myTransactions: { access: 'user' },
  myLotteries: { access: 'user' },
  myTransaction: { access: 'user', owned: 'transaction' },
  transactions: { access: 'staff' },
  updateTransaction: { access: 'staff', owned: 'transaction' },
  proposeApproval: { access: 'staff', owned: 'transaction', body: { reason: 'Receipt shown' } },
  approvalProposals: { access: 'staff' },
  approveApprovalProposal: { access: 'staff', body: { reason: 'Receipt checked' } },
  rejectApprovalProposal: { access: 'staff', body: { reason: 'No receipt' } },
  staffHeldTickets: { access: 'superuser' },
  drawLottery: { access: 'staff' },
  drawProposals: { access: 'staff' },
  approveDrawProposal: { access: 'staff' },
  rejectDrawProposal: { access: 'staff' },
  lotteryPrizes: { access: 'staff' },
  participants: { access: 'staff' },
  randomWinner: { access: 'staff' },
  proposeWithholding: { access: 'superuser', body: { reason: 'Court order' } },
  lotteryWithholdings: { access: 'staff' },
  approveWithholding: { access: 'staff', body: { reason: 'Order checked' } },
  rejectWithholding: { access: 'staff', body: { reason: 'No order' } },
  notifyWinners: { access: 'staff' },
  myWinningTickets: { access: 'user' },
  myWinningTicket: { access: 'user', owned: 'prize' },
  sendClaimCode: { access: 'user' },
  submitClaim: { access: 'user' },
  staffClaims: { access: 'staff' },
  claimsSummary: { access: 'staff' },
  approveTransfer: { access: 'staff' },
  completeTransfer: { access: 'staff' },
  failTransfer: { access: 'staff' },
  payNow: { access: 'staff' },
  settlePayout: { access: 'staff', body: { trx_id: 'BK7QX2M9PA' } },
  payoutNotSent: { access: 'staff' },
  bkashBalance: { access: 'staff' },
  generateTickets: { access: 'staff' },
  generatedTickets: { access: 'staff' },
  exportGeneratedTickets: { access: 'staff' },
  deleteGeneratedTicket: { access: 'staff' },
  activateTicket: { access: 'player', body: { ticket_number: '01-02-03-04-05-06', secret_number: '1234567890123456' } },
  uploadImage: { access: 'public' },
  uploadNid: { access: 'user' },
  getUpload: { access: 'user', owned: 'upload', staffSees: true },
  contact: { access: 'public' },
  openApi: { access: 'public' },
};

/** Endpoints that end the caller's session when he may call them: his token is made again after. */
const ENDS_SESSION = new Set<keyof typeof contract>(['logoutEverywhere']);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
const logins: Partial<Record<Role, { phone: string; password: string; id: number }>> = {};
const tokens: Partial<Record<Role, string>> = {};
const owned: Partial<Record<Owned, string>> = {};

async function login(role: Role): Promise<void> {
  const who = logins[role];
  if (!who) return;
  const r = await request(t.url).post('/api/token/').send({ phone: who.phone, password: who.password });
  if (r.status !== 200) throw new Error(`login of ${role} failed: ${r.status}`);
  tokens[role] = r.body.access as string;
}

beforeAll(async () => {
  t = await startTestApp();
  const make = async (role: Role, phone: string, o: { is_staff?: boolean } = {}) => {
    const u = await createUser(t, { phone, name: role, ...o });
    logins[role] = u;
    return u;
  };
  const a = await make('playerA', '01711100001');
  await make('playerB', '01711100002');
  await make('staff', '01711100003', { is_staff: true });
  const su = await make('superuser', '01711100004', { is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [su.id]);
  for (const role of ['playerA', 'playerB', 'staff', 'superuser'] as const) await login(role);
  // Player A's things.
  const lottery = await insertLottery(t, { name: 'Matrix Draw' });
  const bought = await buy(
    t,
    { id: a.id, phone: a.phone, token: tokens.playerA as string, auth: ['Authorization', `Bearer ${tokens.playerA}`] },
    purchase(lottery, '05-12-23-34-45-07'),
  );
  if (bought.status !== 201) throw new Error(`purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`);
  owned.transaction = String(bought.body.id);
  await t.db.query(`UPDATE transactions SET status = 'success' WHERE id = $1`, [bought.body.id]);
  await t.db.query(`UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1`, [lottery]);
  const prize = await t.db.one<{ id: number }>(
    'INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 500) RETURNING id',
    [lottery, bought.body.id, '05-12-23-34-45-07'],
  );
  owned.prize = String(prize?.id);
  const up = await request(t.url)
    .post('/api/v1/upload-image/')
    .set('Authorization', `Bearer ${tokens.playerA}`)
    .set('Content-Type', 'image/png')
    .send(PNG);
  if (up.status !== 201) throw new Error(`upload failed: ${up.status}`);
  owned.upload = up.body.data.id as string;
  owned.user = String(a.id);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
  // A withholding proposed by the superuser's call of player A's prize is not left for his own approval's call, which
  // would then be refused as the proposer's (403 same_person), not for who he is.
  await t.db.query('DELETE FROM prize_withholding_proposals');
});

const key = (e: Endpoint) => `${e.method} ${e.path}`;
const entries = Object.entries(contract) as [keyof typeof contract, Endpoint][];

function pathOf(name: keyof typeof contract, e: Endpoint): string {
  const rule = MATRIX[name];
  return e.path.replace(/:(\w+)/g, () =>
    rule.owned ? (owned[rule.owned] as string) : e.path.includes('/uploads/') ? '00000000-0000-4000-8000-000000000000' : '1',
  );
}

async function call(name: keyof typeof contract, e: Endpoint, role: Role, path = pathOf(name, e)) {
  let r = request(t.url)[e.method.toLowerCase() as 'get'](path).set('Accept-Language', 'en');
  const token = tokens[role];
  if (token) r = r.set('Authorization', `Bearer ${token}`);
  const res = e.method === 'GET' || e.method === 'DELETE' ? await r : await r.send((MATRIX[name].body ?? {}) as object);
  if (ENDS_SESSION.has(name) && res.status < 300) await login(role);
  return res;
}

/** Whether a role may call an endpoint of this access. */
const allowed = (access: Access, role: Role) =>
  access === 'public' ||
  (access === 'user' && role !== 'anonymous') ||
  (access === 'player' && (role === 'playerA' || role === 'playerB')) ||
  (access === 'staff' && (role === 'staff' || role === 'superuser')) ||
  (access === 'superuser' && role === 'superuser');

test('every endpoint of the route table has an entry, and every entry an endpoint; the entries agree with the contract', () => {
  expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(contract).sort());
  for (const [name, e] of entries) {
    const a = MATRIX[name].access;
    const declared = a === 'superuser' ? 'staff' : a === 'player' ? 'user' : a;
    expect({ endpoint: key(e), access: e.access }).toEqual({ endpoint: key(e), access: declared });
  }
});

describe.each(['anonymous', 'playerA', 'playerB', 'staff', 'superuser'] as const)('as %s', (role) => {
  test.each(entries.map(([name, e]) => [key(e), name, e] as const))('%s', async (_k, name, e) => {
    const rule = MATRIX[name];
    const r = await call(name, e, role);
    // Player B on player A's object: the next part's checks.
    if (role === 'playerB' && rule.owned && allowed(rule.access, role)) return;
    if (allowed(rule.access, role)) {
      expect(r.status === 401 || r.status === 403 ? { status: r.status, body: r.body } : 'not refused').toBe('not refused');
    } else if (role === 'anonymous') {
      expect([r.status, r.body.code]).toEqual([401, 'not_authenticated']);
    } else if (rule.access === 'player') {
      expect([r.status, r.body.code]).toEqual([403, 'staff_cannot_play']);
    } else {
      expect([r.status, r.body.code]).toEqual([403, 'permission_denied']);
    }
  });
});

describe("player A's things, object by object", () => {
  const ownedEntries = entries.filter(([name]) => MATRIX[name].owned && ['user', 'player'].includes(MATRIX[name].access));
  test.each(ownedEntries.map(([name, e]) => [key(e), name, e] as const))(
    '%s: A reaches it; B gets what he gets for nothing and changes nothing',
    async (_k, name, e) => {
      const rule = MATRIX[name];
      const refused: [number, string] = rule.othersGet === 403 ? [403, 'permission_denied'] : [404, 'not_found'];
      const before = await t.db.query('SELECT id, status, trx_id FROM transactions ORDER BY id');
      const b = await call(name, e, 'playerB');
      expect([b.status, b.body.code]).toEqual(refused);
      expect(await t.db.query('SELECT id, status, trx_id FROM transactions ORDER BY id')).toEqual(before);
      // The same answer for an id that names nothing: B learns nothing of what exists.
      const nothing = e.path.replace(/:(\w+)/g, () => (rule.owned === 'upload' ? '00000000-0000-4000-8000-00000000dead' : '999999'));
      const none = await call(name, e, 'playerB', nothing);
      expect([none.status, none.body.code]).toEqual(refused);
      if (e.method === 'GET') {
        expect((await call(name, e, 'playerA')).status).toBe(200);
        expect((await call(name, e, 'staff')).status).toBe(rule.staffSees ? 200 : 404);
      }
    },
  );
});
