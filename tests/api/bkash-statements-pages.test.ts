/**
 * /admin/bkash-statements as a browser without JavaScript uses it (docs/rules/payments.md#8-send-money-reconciled-with-the-statement,
 * docs/rules/pages.md#4-without-javascript): the multipart upload form, the upload's result row by row, waiting for a
 * second staff member who confirms it (or discards it) from a confirmation, an approval of a row proposed by one and
 * confirmed by another, refusals shown in words, and a post without its CSRF token changing nothing.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

const STATEMENT = readFileSync(new URL('../fixtures/bkash-statement/merchant-statement.csv', import.meta.url));

let t: TestApp;
let staffAgent: Agent;
let secondAgent: Agent;
let a: Player;

beforeAll(async () => {
  t = await startTestApp({ BKASH_RECEIVER_NUMBER: '01811000000' });
  a = await account(t, { name: 'Rahim Uddin' });
  const u = await createUser(t, { name: 'Desk Staff', phone: '01955500021', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
  const second = await createUser(t, { name: 'Second Staff', phone: '01955500023', is_staff: true });
  secondAgent = request.agent(t.url);
  secondAgent.set('Cookie', 'lang=en');
  await loginAs(secondAgent, second.phone, second.password);
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of ['audit_log', 'bkash_statement_rows', 'bkash_statements', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;
const statementCount = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM bkash_statements'))?.n;

async function bought(lottery: number, ticket: string, trxId: string, paymentNumber: string): Promise<number> {
  const res = await buy(t, a, purchase(lottery, ticket, { trx_id: trxId, payment_number: paymentNumber }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** What a page shows: its HTML without its scripts (which carry every text of the back office for the client). */
const shown = (r: { text: string }): string => r.text.replace(/<script\b[\s\S]*?<\/script>/g, '');

/** A confirmation's form posted as the browser would: its token from the dialog's own page. */
async function postFrom(agent: Agent, href: string, fields: Record<string, string>) {
  const dialog = await agent.get(href).expect(200);
  return agent
    .post(href)
    .type('form')
    .send({ _csrf: csrfFrom(dialog.text), ...fields });
}

async function uploadForm(file: Buffer, name: string, lang = 'en') {
  const page = await staffAgent.get('/admin/bkash-statements').set('Cookie', `lang=${lang}`).expect(200);
  expect(shown(page)).toContain('encType="multipart/form-data"');
  return staffAgent
    .post('/admin/bkash-statements')
    .set('Cookie', `lang=${lang}`)
    .field('_csrf', csrfFrom(page.text))
    .attach('file', file, name);
}

describe('/admin/bkash-statements without JavaScript', () => {
  test('upload the statement: it waits for a second staff member, who confirms it; an approval of a row proposed by one, confirmed by the other', async () => {
    const padma = await insertLottery(t, { name: 'Padma Weekly' });
    const ok = await bought(padma, '01-02-03-04-05-06', 'CKD4A7F2QX', '01712345678');
    const wrong = await bought(padma, '01-02-03-04-05-07', 'CKF7K2R4VC', '01911223344');

    const empty = await staffAgent.get('/admin/bkash-statements').expect(200);
    expect(shown(empty)).toContain('No statement has been uploaded yet.');
    expect(shown(empty)).toContain('No purchase is flagged.');

    const posted = await uploadForm(STATEMENT, 'merchant-statement.csv');
    expect(posted.status).toBe(303);
    const id = (await t.db.one<{ id: number }>('SELECT id FROM bkash_statements'))!.id;
    expect(posted.headers.location).toBe(`/admin/bkash-statements/${id}?uploaded=1`);
    expect(await statusOf(ok)).toBe('pending');

    // The uploader sees what it would do, and that another staff member must confirm it; he is offered no confirmation.
    const result = await staffAgent.get(posted.headers.location as string).expect(200);
    for (const s of [
      'Statement read: below is what it would do. Nothing is approved until another staff member confirms it.',
      'merchant-statement.csv',
      'Uploaded by Desk Staff',
      'Waits for a second staff member',
      'You uploaded this statement: another staff member must confirm it before anything in it is approved.',
      'To approve: 1',
      'The rows are decided once the upload is confirmed.',
      'Line 9',
      'Line 13',
      'The amount differs from the purchase&#x27;s',
      'No purchase carries this TrxID',
      'This TrxID is on more than one row',
      'The amount has a fraction of a taka',
      'CKJ2R5X3AH',
      'No TrxID on this line (a total or a note)',
    ])
      expect(shown(result)).toContain(s);
    expect(shown(result)).not.toContain('upload=confirm');
    expect(shown(result)).toContain(`href="/admin/bkash-statements/${id}?upload=discard"`);
    // No decision on a row before the upload is confirmed.
    expect(shown(result)).not.toContain('do=approve');
    const ownDialog = await staffAgent.get(`/admin/bkash-statements/${id}?upload=confirm`).expect(200);
    expect(shown(ownDialog)).not.toContain('Confirm this upload?');
    const own = await staffAgent
      .post(`/admin/bkash-statements/${id}?upload=confirm`)
      .type('form')
      .send({ _csrf: csrfFrom(ownDialog.text), intent: 'confirm' });
    expect(own.status).toBe(403);
    expect(shown(own)).toContain('You uploaded this statement: another staff member must confirm it.');
    expect(await statusOf(ok)).toBe('pending');

    // The second staff member confirms it from its confirmation; without the CSRF token nothing changes.
    const other = await secondAgent.get(`/admin/bkash-statements/${id}`).expect(200);
    expect(shown(other)).toContain(
      'Nothing is approved yet. Check the rows to approve against the statement, then confirm the upload or discard it.',
    );
    const confirmHref = `/admin/bkash-statements/${id}?upload=confirm`;
    expect(shown(other)).toContain(`href="${confirmHref}"`);
    const dialog = await secondAgent.get(confirmHref).expect(200);
    expect(shown(dialog)).toContain('Confirm this upload?');
    expect(shown(dialog)).toContain('the audit log names you and the uploader');
    const forgedConfirm = await request(t.url).post(confirmHref).type('form').send({ intent: 'confirm' });
    expect(forgedConfirm.status).toBe(403);
    expect(await statusOf(ok)).toBe('pending');
    const confirmed = await postFrom(secondAgent, confirmHref, { intent: 'confirm' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe(`/admin/bkash-statements/${id}?confirmed=1`);
    expect(await statusOf(ok)).toBe('success');
    const after = await staffAgent.get(confirmed.headers.location as string).expect(200);
    for (const s of ['Upload confirmed: its rows to approve were carried out.', 'Confirmed by Second Staff', 'Approved: 1', '>Confirmed<'])
      expect(shown(after)).toContain(s);
    expect(shown(after)).not.toContain('Waits for a second staff member');

    // The review rows not decided yet; the row of the wrong amount opens its confirmation: a proposal.
    const open = await staffAgent.get(`/admin/bkash-statements/${id}?decision=review_open`).expect(200);
    expect(shown(open)).not.toContain('Line 9<');
    const row = (await t.db.one<{ id: number }>('SELECT id FROM bkash_statement_rows WHERE line = 13'))!.id;
    const approveHref = `/admin/bkash-statements/${id}?decision=review_open&amp;resolve=${row}&amp;do=approve`;
    expect(shown(open)).toContain(`href="${approveHref}"`);
    const action = approveHref.replace(/&amp;/g, '&');
    const propose = await staffAgent.get(action).expect(200);
    expect(shown(propose)).toContain('Approve this purchase?');
    expect(shown(propose)).toContain('it is approved once another staff member confirms');
    expect(shown(propose)).toContain('<textarea');

    // Without a note: refused in words, nothing changed.
    const noNote = await postFrom(staffAgent, action, { row: String(row), intent: 'approve', note: '' });
    expect(noNote.status).toBe(400);
    expect(shown(noNote)).toContain('Please give the reason.');
    // Without the CSRF token: nothing changes.
    const forged = await request(t.url)
      .post(action)
      .type('form')
      .send({ row: String(row), intent: 'approve', note: 'x' });
    expect(forged.status).toBe(403);
    expect(await t.db.one('SELECT 1 FROM bkash_statement_rows WHERE id = $1 AND proposed_by IS NOT NULL', [row])).toBeUndefined();

    const proposed = await postFrom(staffAgent, action, { row: String(row), intent: 'approve', note: 'Paid 150; 50 returned.' });
    expect(proposed.status).toBe(303);
    expect(proposed.headers.location).toBe(`/admin/bkash-statements/${id}?decision=review_open&resolved=1`);
    expect(await statusOf(wrong)).toBe('pending');
    const mine = await staffAgent.get(proposed.headers.location as string).expect(200);
    for (const s of [
      'Decision saved.',
      'Approval proposed by Desk Staff',
      'Paid 150; 50 returned.',
      'You proposed approving it: another staff member confirms',
    ])
      expect(shown(mine)).toContain(s);
    expect(shown(mine)).not.toContain(`href="${approveHref}"`);

    // The second staff member confirms the approval.
    const theirs = await secondAgent.get(`/admin/bkash-statements/${id}?decision=review_open`).expect(200);
    expect(shown(theirs)).toContain('Confirm approval');
    expect(shown(theirs)).toContain(`href="${approveHref}"`);
    const confirmDialog = await secondAgent.get(action).expect(200);
    expect(shown(confirmDialog)).toContain('Confirm this approval?');
    expect(shown(confirmDialog)).toContain('Approval proposed by Desk Staff');
    const done = await postFrom(secondAgent, action, { row: String(row), intent: 'approve', note: 'Checked the 150.' });
    expect(done.status).toBe(303);
    expect(await statusOf(wrong)).toBe('success');
    const decided = await staffAgent.get(`/admin/bkash-statements/${id}?decision=review`).expect(200);
    expect(shown(decided)).toContain('Approved by Second Staff');
    expect(shown(decided)).toContain('Checked the 150.');

    // The same file again leads to that upload.
    const again = await uploadForm(STATEMENT, 'copy.csv');
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(`/admin/bkash-statements/${id}?repeated=1`);
    expect(await statementCount()).toBe(1);

    // In Bengali.
    const bn = await staffAgent.get(`/admin/bkash-statements/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(shown(bn)).toContain('বিকাশ স্টেটমেন্ট');
    expect(shown(bn)).toContain('কোনো কেনাকাটায় এই TrxID নেই');
    expect(shown(bn)).toContain('নিশ্চিত করেছেন Second Staff');
    const list = await staffAgent.get('/admin/bkash-statements').expect(200);
    expect(shown(list)).toContain('merchant-statement.csv');
    expect(shown(list)).toContain('Confirmed by Second Staff');
    expect(shown(list)).toContain(`href="/admin/bkash-statements/${id}"`);
  });

  test('an upload awaiting confirmation is listed so in both languages; discarded from its confirmation with a reason, it approves nothing', async () => {
    const padma = await insertLottery(t, { name: 'Padma Weekly' });
    const ok = await bought(padma, '01-02-03-04-05-06', 'CKD4A7F2QX', '01712345678');
    expect((await uploadForm(STATEMENT, 'merchant-statement.csv')).status).toBe(303);
    const id = (await t.db.one<{ id: number }>('SELECT id FROM bkash_statements'))!.id;
    const en = await secondAgent.get('/admin/bkash-statements').expect(200);
    expect(shown(en)).toContain('Waits for a second staff member');
    expect(shown(en)).toContain('To approve: 1');
    const bn = await secondAgent.get('/admin/bkash-statements').set('Cookie', 'lang=bn').expect(200);
    expect(shown(bn)).toContain('দ্বিতীয় একজন কর্মীর অপেক্ষায়');
    expect(shown(bn)).toContain('আপলোড করেছেন Desk Staff');

    // The uploader is told, in Bengali too, that another staff member must confirm it.
    const ownBn = await staffAgent.get(`/admin/bkash-statements/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(shown(ownBn)).toContain('এই স্টেটমেন্ট আপনি আপলোড করেছেন: এর কিছু অনুমোদিত হওয়ার আগে অন্য একজন কর্মীকে এটি নিশ্চিত করতে হবে।');
    expect(shown(ownBn)).toContain('অনুমোদন হবে: ১');
    expect(shown(ownBn)).not.toContain('upload=confirm');

    const href = `/admin/bkash-statements/${id}?upload=discard`;
    const dialog = await secondAgent.get(href).expect(200);
    expect(shown(dialog)).toContain('Discard this upload?');
    expect(shown(dialog)).toContain('name="reason"');
    const noReason = await postFrom(secondAgent, href, { intent: 'discard', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(shown(noReason)).toContain('Please give the reason.');
    const discarded = await postFrom(secondAgent, href, { intent: 'discard', reason: 'Exported from the wrong wallet.' });
    expect(discarded.status).toBe(303);
    expect(discarded.headers.location).toBe(`/admin/bkash-statements/${id}?discarded=1`);
    const page = await staffAgent.get(discarded.headers.location as string).expect(200);
    for (const s of [
      'Upload discarded: it approves nothing.',
      'Discarded by Second Staff',
      'Exported from the wrong wallet.',
      '>Discarded<',
    ])
      expect(shown(page)).toContain(s);
    expect(shown(page)).not.toContain('upload=discard');
    const bnPage = await staffAgent.get(`/admin/bkash-statements/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(shown(bnPage)).toContain('সরিয়ে রেখেছেন Second Staff');
    // Confirming it now is refused in words.
    const late = await secondAgent
      .post(`/admin/bkash-statements/${id}?upload=confirm`)
      .type('form')
      .send({ _csrf: csrfFrom(dialog.text), intent: 'confirm' });
    expect(late.status).toBe(409);
    expect(shown(late)).toContain('This upload has been discarded: it approves nothing.');
    expect(await statusOf(ok)).toBe('pending');
  });

  test('a file that is not a statement, an XLSX, no file: the reason above the form in both languages, nothing stored', async () => {
    const xlsx = await uploadForm(Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.xlsx');
    expect(xlsx.status).toBe(400);
    expect(shown(xlsx)).toContain('We do not read XLSX files.');
    const bn = await uploadForm(Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.xlsx', 'bn');
    expect(bn.status).toBe(400);
    expect(shown(bn)).toContain('XLSX ফাইল আমরা পড়ি না।');
    const bank = await uploadForm(Buffer.from('Date,Description,Debit,Credit,Balance\n05-12-2026,Salary,,1000,1000\n'), 'bank.csv');
    expect(bank.status).toBe(400);
    expect(shown(bank)).toContain('This is not a bKash statement');

    const page = await staffAgent.get('/admin/bkash-statements').expect(200);
    const none = await staffAgent.post('/admin/bkash-statements').field('_csrf', csrfFrom(page.text));
    expect(none.status).toBe(400);
    expect(shown(none)).toContain('Choose the statement file.');
    expect(await statementCount()).toBe(0);
  });

  test('a player is not let in', async () => {
    const player = request.agent(t.url);
    const u = await createUser(t, { phone: '01955500022' });
    await loginAs(player, u.phone, u.password);
    const res = await player.get('/admin/bkash-statements');
    expect(res.status).not.toBe(200);
  });
});
