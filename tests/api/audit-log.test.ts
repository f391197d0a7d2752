/**
 * The audit log (docs/rules/security.md#7-audit-log): GET /api/v1/admin/audit-log/ and /admin/audit-log — superusers
 * read every recorded staff change (who, what, before and after, when); other staff 403, players 403, anonymous 401;
 * nothing in the API changes a record. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, insertLottery, purchase, roles, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let player: Player, staff: Player, superuser: Player;

beforeAll(async () => {
  t = await startTestApp();
  ({ player, staff, superuser } = await roles(t, { player: 'Rahim Uddin', staff: 'Desk Officer', superuser: 'Chief Auditor' }));
});
afterAll(async () => {
  await t.close();
});

const log = (p: Player | null, query: Record<string, unknown> = {}) => to(t, api.auditLog, { query, as: p, lang: 'en' });

test('who may read it: superusers only', async () => {
  expect((await log(null)).status).toBe(401);
  expect((await log(player)).status).toBe(403);
  const staffRes = await log(staff);
  expect(staffRes.status).toBe(403);
  expect(staffRes.body).toEqual({ detail: 'Only superusers can read the audit log.', code: 'permission_denied' });
  expect((await log(superuser)).status).toBe(200);
  // A superuser who was deactivated reads nothing.
  const former = await account(t, { is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true, is_active = false WHERE id = $1', [former.id]);
  expect([401, 403]).toContain((await log(former)).status);
});

test('staff changes appear newest first with who, what, before and after; filters', async () => {
  await t.db.query('DELETE FROM audit_log');
  const lottery = await insertLottery(t, { name: 'Audited Draw' });
  const sale = await buy(t, player, purchase(lottery, '05-12-23-34-45-07', { trx_id: trxId() }));
  expect((await approveByHand(t, sale.body.id)).status).toBe(200);
  await to(t, api.updateLottery, { params: { id: lottery }, as: staff })
    .send({ featured: true })
    .expect(200);
  const res = await log(superuser);
  expect(res.status).toBe(200);
  // The approval by hand is two records: the proposal and the approval (docs/rules/payments.md#1-who-may-do-what).
  expect(res.headers['x-total-count']).toBe('3');
  expect(res.body[0]).toMatchObject({
    action: 'lottery.update',
    entity: 'lottery',
    entity_id: String(lottery),
    actor: { id: staff.id, name: 'Desk Officer' },
    before: { featured: false },
    after: { featured: true },
  });
  expect(res.body[1]).toMatchObject({
    action: 'transaction.approve',
    entity: 'transaction',
    before: { status: 'pending' },
    after: { status: 'success' },
  });
  expect(res.body[2]).toMatchObject({
    action: 'transaction.approval_proposed',
    entity: 'transaction',
    after: { reason: 'Receipt shown in a test' },
  });
  expect((await log(superuser, { entity: 'transaction' })).body.map((a: { action: string }) => a.action)).toEqual([
    'transaction.approve',
    'transaction.approval_proposed',
  ]);
  expect((await log(superuser, { entity: 'lottery', entity_id: lottery })).body).toHaveLength(1);
  expect((await log(superuser, { action: 'lottery.update' })).body).toHaveLength(1);
  expect((await log(superuser, { actor_id: player.id })).body).toEqual([]);
  for (const q of [{ entity: 'everything' }, { actor_id: 'x' }, { limit: 0 }]) expect((await log(superuser, q)).status).toBe(400);
  // Read only: no method changes a record.
  for (const method of ['post', 'put', 'patch', 'delete'] as const) {
    // A wrong method is about the URL: written out.
    const call = request(t.url)[method]('/api/v1/admin/audit-log/');
    expect((await call.set(...superuser.auth).send({})).status).toBe(404);
  }
});

test('the page: superusers see the records, other staff are told it is for superusers', async () => {
  const sup = await createUser(t, { name: 'Page Auditor', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [sup.id]);
  const desk = await createUser(t, { name: 'Page Desk', is_staff: true });
  const supAgent = await loginAs(t.url, sup.phone, sup.password);
  const page = await supAgent.get('/admin/audit-log').expect(200);
  expect(page.text).toContain('Audit log');
  expect(page.text).toContain('lottery.update');
  const deskAgent = await loginAs(t.url, desk.phone, desk.password);
  const refused = await deskAgent.get('/admin/audit-log').expect(200);
  expect(refused.text).toContain('Only superusers can read the audit log.');
  expect(refused.text).not.toContain('lottery.update</code>');
});
