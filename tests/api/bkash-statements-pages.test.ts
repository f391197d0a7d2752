/**
 * /admin/bkash-statements as a browser without JavaScript uses it (docs/rules/payments.md#8-send-money-reconciled-with-the-statement,
 * docs/rules/pages.md#4-without-javascript): the multipart upload form, the upload's result row by row, a decision on
 * a row from its confirmation with a note, refusals shown in words, and a post without its CSRF token changing nothing.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

const STATEMENT = readFileSync(new URL('../fixtures/bkash-statement/merchant-statement.csv', import.meta.url));

let t: TestApp;
let staffAgent: Agent;
let a: Player;

beforeAll(async () => {
  t = await startTestApp({ BKASH_RECEIVER_NUMBER: '01811000000' });
  a = await account(t, { name: 'Rahim Uddin' });
  const u = await createUser(t, { name: 'Desk Staff', phone: '01955500021', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
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

async function uploadForm(file: Buffer, name: string, lang = 'en') {
  const page = await staffAgent.get('/admin/bkash-statements').set('Cookie', `lang=${lang}`).expect(200);
  expect(page.text).toContain('encType="multipart/form-data"');
  return staffAgent
    .post('/admin/bkash-statements')
    .set('Cookie', `lang=${lang}`)
    .field('_csrf', csrfFrom(page.text))
    .attach('file', file, name);
}

describe('/admin/bkash-statements without JavaScript', () => {
  test('upload the statement: its result row by row, then approve a row for review from its confirmation with a note', async () => {
    const padma = await insertLottery(t, { name: 'Padma Weekly' });
    const ok = await bought(padma, '01-02-03-04-05-06', 'CKD4A7F2QX', '01712345678');
    const wrong = await bought(padma, '01-02-03-04-05-07', 'CKF7K2R4VC', '01911223344');

    const empty = await staffAgent.get('/admin/bkash-statements').expect(200);
    expect(empty.text).toContain('No statement has been uploaded yet.');
    expect(empty.text).toContain('No purchase is flagged.');

    const posted = await uploadForm(STATEMENT, 'merchant-statement.csv');
    expect(posted.status).toBe(303);
    const id = (await t.db.one<{ id: number }>('SELECT id FROM bkash_statements'))!.id;
    expect(posted.headers.location).toBe(`/admin/bkash-statements/${id}?uploaded=1`);
    expect(await statusOf(ok)).toBe('success');

    const result = await staffAgent.get(posted.headers.location as string).expect(200);
    for (const s of [
      'Statement read: what was done is below.',
      'merchant-statement.csv',
      'Uploaded by Desk Staff',
      'Approved: 1',
      'Line 9',
      'Line 13',
      'The amount differs from the purchase&#x27;s',
      'No purchase carries this TrxID',
      'This TrxID is on more than one row',
      'The amount has a fraction of a taka',
      'CKJ2R5X3AH',
      'No TrxID on this line (a total or a note)',
    ])
      expect(result.text).toContain(s);

    // The review rows not decided yet; the row of the wrong amount opens its confirmation.
    const open = await staffAgent.get(`/admin/bkash-statements/${id}?decision=review_open`).expect(200);
    expect(open.text).not.toContain('Line 9<');
    const row = (await t.db.one<{ id: number }>('SELECT id FROM bkash_statement_rows WHERE line = 13'))!.id;
    const confirmHref = `/admin/bkash-statements/${id}?decision=review_open&amp;resolve=${row}&amp;do=approve`;
    expect(open.text).toContain(`href="${confirmHref}"`);
    const dialog = await staffAgent.get(confirmHref.replace(/&amp;/g, '&')).expect(200);
    expect(dialog.text).toContain('Approve this purchase?');
    expect(dialog.text).toContain('<textarea');
    const _csrf = csrfFrom(dialog.text);
    const action = confirmHref.replace(/&amp;/g, '&');

    // Without a note: refused in words, nothing changed.
    const noNote = await staffAgent
      .post(action)
      .type('form')
      .send({ _csrf, row: String(row), intent: 'approve', note: '' });
    expect(noNote.status).toBe(400);
    expect(noNote.text).toContain('Please give the reason.');
    expect(await statusOf(wrong)).toBe('pending');

    // Without the CSRF token: nothing changes.
    const forged = await request(t.url)
      .post(action)
      .type('form')
      .send({ row: String(row), intent: 'approve', note: 'x' });
    expect(forged.status).toBe(403);
    expect(await statusOf(wrong)).toBe('pending');

    const done = await staffAgent
      .post(action)
      .type('form')
      .send({ _csrf, row: String(row), intent: 'approve', note: 'Paid 150; 50 returned.' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/admin/bkash-statements/${id}?decision=review_open&resolved=1`);
    expect(await statusOf(wrong)).toBe('success');
    const after = await staffAgent.get(`/admin/bkash-statements/${id}?decision=review`).expect(200);
    expect(after.text).toContain('Decision saved.');
    expect(after.text).toContain('Approved by Desk Staff');
    expect(after.text).toContain('Paid 150; 50 returned.');

    // The same file again leads to that upload.
    const again = await uploadForm(STATEMENT, 'copy.csv');
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(`/admin/bkash-statements/${id}?repeated=1`);
    expect(await statementCount()).toBe(1);

    // In Bengali.
    const bn = await staffAgent.get(`/admin/bkash-statements/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('বিকাশ স্টেটমেন্ট');
    expect(bn.text).toContain('কোনো কেনাকাটায় এই TrxID নেই');
    const list = await staffAgent.get('/admin/bkash-statements').expect(200);
    expect(list.text).toContain('merchant-statement.csv');
    expect(list.text).toContain(`href="/admin/bkash-statements/${id}"`);
  });

  test('a file that is not a statement, an XLSX, no file: the reason above the form in both languages, nothing stored', async () => {
    const xlsx = await uploadForm(Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.xlsx');
    expect(xlsx.status).toBe(400);
    expect(xlsx.text).toContain('We do not read XLSX files.');
    const bn = await uploadForm(Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.xlsx', 'bn');
    expect(bn.status).toBe(400);
    expect(bn.text).toContain('XLSX ফাইল আমরা পড়ি না।');
    const bank = await uploadForm(Buffer.from('Date,Description,Debit,Credit,Balance\n05-12-2026,Salary,,1000,1000\n'), 'bank.csv');
    expect(bank.status).toBe(400);
    expect(bank.text).toContain('This is not a bKash statement');

    const page = await staffAgent.get('/admin/bkash-statements').expect(200);
    const none = await staffAgent.post('/admin/bkash-statements').field('_csrf', csrfFrom(page.text));
    expect(none.status).toBe(400);
    expect(none.text).toContain('Choose the statement file.');
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
