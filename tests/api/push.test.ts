/**
 * Push notifications to the installed app (docs/rules/messages.md#6-push-notifications): the subscription and
 * settings API with each bad input and each role; a message's pushes written with it, once per message and device,
 * for the kinds the player wants; sent encrypted to a local push service with our VAPID signature, in the player's
 * language, once even when many senders run at once; a device the push service says is gone deleted.
 */
import { tell } from '../../server/messages/outbox.ts';
import { MAX_PUSH_TRIES } from '../../server/push/service.ts';
import { PUSH_TTL_SECONDS } from '../../server/push/transport.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { decrypt, startPushService, testDevice, vapidClaims, type PushService, type TestDevice } from '../helpers/push-service.ts';
import {
  account,
  approveByHand,
  buy,
  drawByHand,
  insertLottery,
  purchase,
  superuserAccount,
  trxId,
  type Player,
} from './purchase-fixtures.ts';

let t: TestApp;
let service: PushService;
let a: Player;
let b: Player;
let staff: Player;
let superuser: Player;
let seq = 0;
beforeAll(async () => {
  [t, service] = await Promise.all([startTestApp(), startPushService()]);
  [a, b, staff, superuser] = await Promise.all([
    account(t, { name: 'Rahim Uddin' }),
    account(t),
    account(t, { is_staff: true }),
    superuserAccount(t),
  ]);
});
afterAll(async () => {
  await t.close();
  await service.close();
});
beforeEach(async () => {
  service.received.length = 0;
  for (const table of ['push_deliveries', 'push_subscriptions', 'push_settings', 'player_messages', 'prizes', 'transactions'])
    await t.db.query(`DELETE FROM ${table}`);
  await t.db.query(`UPDATE users SET language = 'en'`);
});

const device = (name = `d${++seq}`): TestDevice => testDevice(`${service.url}/push/${name}`);
const body = (d: TestDevice, extra: Record<string, unknown> = {}) => ({ endpoint: d.endpoint, keys: d.keys, ...extra });
const subscribe = (p: Player, d: TestDevice) => to(t, api.subscribePush, { as: p }).send(body(d, { label: 'Test browser' }));
const subscriptions = () =>
  t.db.query<{ user_id: number; endpoint: string; label: string; failure_count: number; last_success_at: string | null }>(
    'SELECT user_id, endpoint, label, failure_count, last_success_at FROM push_subscriptions ORDER BY id',
  );
const deliveries = () =>
  t.db.query<{ state: string; tries: number }>('SELECT state, tries FROM push_deliveries ORDER BY message_id, subscription_id');

/** A "ticket confirmed" message to `p`, written as its event writes it (server/messages/outbox.ts). */
async function confirmed(p: Player, key = `ticket_confirmed:test:${++seq}`) {
  await t.db.tx((tx) =>
    tell(tx, {
      userId: p.id,
      kind: 'ticket_confirmed',
      key,
      params: {
        lottery_id: 1,
        lottery: 'Weekly Draw',
        lottery_bn: 'সাপ্তাহিক ড্র',
        ticket: '05-12-23-34-45-07',
        transaction_id: 7,
        amount: 100,
      },
    }),
  );
}
const payloads = (d: TestDevice) =>
  service.received.filter((r) => d.endpoint.endsWith(r.path)).map((r) => JSON.parse(decrypt(d, r.body)) as Record<string, string>);

describe('the settings and subscriptions API', () => {
  test('defaults: the server’s public key, both kinds on, no device; a device added, renamed, removed', async () => {
    const s = await to(t, api.pushSettings, { as: a }).expect(200);
    expect(s.body).toEqual({ public_key: expect.stringMatching(/^[\w-]{87}$/), results: true, confirmations: true, devices: 0 });
    const d = device();
    const added = await subscribe(a, d).expect(201);
    expect(added.body).toMatchObject({ devices: 1 });
    expect(await subscriptions()).toEqual([
      expect.objectContaining({ user_id: a.id, endpoint: d.endpoint, label: 'Test browser', failure_count: 0 }),
    ]);
    // The same endpoint again is the same device.
    await to(t, api.subscribePush, { as: a })
      .send(body(d, { label: 'Renamed' }))
      .expect(201);
    expect((await subscriptions()).map((s) => s.label)).toEqual(['Renamed']);
    const removed = await to(t, api.unsubscribePush, { as: a }).send({ endpoint: d.endpoint }).expect(200);
    expect(removed.body.devices).toBe(0);
    expect(await subscriptions()).toEqual([]);
  });

  test('a browser’s own form of the keys is taken: padded base64url, expirationTime null', async () => {
    const d = device();
    await to(t, api.subscribePush, { as: a })
      .send({ endpoint: d.endpoint, expirationTime: null, keys: { p256dh: `${d.keys.p256dh}=`, auth: `${d.keys.auth}==` } })
      .expect(201);
    const row = await t.db.one<{ p256dh: string; auth: string }>('SELECT p256dh, auth FROM push_subscriptions');
    expect(row).toEqual(d.keys);
  });

  test('settings: a change is kept; each bad body 400 in the caller’s language and nothing changed', async () => {
    expect((await to(t, api.setPushSettings, { as: a }).send({ results: true, confirmations: false }).expect(200)).body).toMatchObject({
      results: true,
      confirmations: false,
    });
    for (const bad of [
      {},
      { results: true },
      { results: 'yes', confirmations: true },
      { results: true, confirmations: false, extra: 1 },
      [],
      null,
    ]) {
      const r = await to(t, api.setPushSettings, { as: a }).send(JSON.stringify(bad)).set('Content-Type', 'application/json');
      expect(r.status).toBe(400);
    }
    const bn = await to(t, api.setPushSettings, { as: a, lang: 'bn' }).send({ results: 1, confirmations: true }).expect(400);
    expect(bn.body.results[0]).toBe('প্রতিটি বার্তা-সেটিং চালু বা বন্ধ (true বা false) হতে হবে।');
    expect((await to(t, api.pushSettings, { as: a }).expect(200)).body).toMatchObject({ results: true, confirmations: false });
  });

  test('each bad subscription 400 with the field named, nothing stored', async () => {
    const d = device();
    const point = Buffer.from(d.keys.p256dh, 'base64url');
    const compressed = Buffer.concat([Buffer.from([0x02]), point.subarray(1)]).toString('base64url');
    const cases: [unknown, string][] = [
      [{ keys: d.keys }, 'endpoint'],
      [body(d, { endpoint: 'not a url' }), 'endpoint'],
      [body(d, { endpoint: 'ftp://push.example.com/x' }), 'endpoint'],
      [body(d, { endpoint: 'http://push.example.com/x' }), 'endpoint'],
      [body(d, { endpoint: 'https://user:pw@push.example.com/x' }), 'endpoint'],
      [body(d, { endpoint: `https://push.example.com/${'x'.repeat(1000)}` }), 'endpoint'],
      [body(d, { endpoint: 42 }), 'endpoint'],
      [{ endpoint: d.endpoint }, 'keys'],
      [body(d, { keys: { p256dh: d.keys.p256dh } }), 'keys'],
      [body(d, { keys: { ...d.keys, p256dh: d.keys.p256dh.slice(1) } }), 'keys.p256dh'],
      [body(d, { keys: { ...d.keys, p256dh: compressed } }), 'keys.p256dh'],
      [body(d, { keys: { ...d.keys, p256dh: `${d.keys.p256dh.slice(0, -1)}+` } }), 'keys.p256dh'],
      [body(d, { keys: { ...d.keys, auth: `${d.keys.auth}AA` } }), 'keys.auth'],
      [body(d, { keys: { ...d.keys, auth: 'a/b'.padEnd(22, 'x') } }), 'keys.auth'],
      [body(d, { keys: { ...d.keys, extra: 'x' } }), 'extra'],
      [body(d, { label: 'x'.repeat(101) }), 'label'],
      [body(d, { label: 5 }), 'label'],
      [body(d, { extra: true }), 'extra'],
    ];
    for (const [sent, field] of cases) {
      const r = await to(t, api.subscribePush, { as: a }).send(sent as object);
      // A key's problem is told under `keys` or under the key itself.
      const fields = Object.keys(r.body).map((k) => (k.startsWith('keys') ? 'keys' : k));
      expect({ sent, status: r.status, fields }).toEqual({ sent, status: 400, fields: [field.startsWith('keys') ? 'keys' : field] });
    }
    expect(await subscriptions()).toEqual([]);
  });

  test('removal: only one’s own device; another’s or an unknown endpoint 404 and nothing deleted; a bad one 400', async () => {
    const d = device();
    await subscribe(a, d).expect(201);
    const other = await to(t, api.unsubscribePush, { as: b }).send({ endpoint: d.endpoint }).expect(404);
    expect(other.body.code).toBe('push_subscription_not_found');
    await to(t, api.unsubscribePush, { as: a })
      .send({ endpoint: `${service.url}/push/none` })
      .expect(404);
    const bn = await to(t, api.unsubscribePush, { as: a, lang: 'bn' })
      .send({ endpoint: `${service.url}/push/none` })
      .expect(404);
    expect(bn.body.detail).toBe('এই ডিভাইসের বিজ্ঞপ্তি আগেই বন্ধ করা হয়েছে।');
    await to(t, api.unsubscribePush, { as: a }).send({ endpoint: 'nope' }).expect(400);
    await to(t, api.unsubscribePush, { as: a }).send({}).expect(400);
    expect(await subscriptions()).toHaveLength(1);
  });

  test('a browser another account had subscribed moves to the one now signed in, without the other’s waiting pushes', async () => {
    const d = device();
    await subscribe(b, d).expect(201);
    await confirmed(b);
    expect(await deliveries()).toHaveLength(1);
    await subscribe(a, d).expect(201);
    expect((await subscriptions()).map((s) => s.user_id)).toEqual([a.id]);
    expect(await deliveries()).toEqual([]);
    expect((await to(t, api.pushSettings, { as: b }).expect(200)).body.devices).toBe(0);
  });

  test('the same device posted 20 times at once: one device, every answer 201', async () => {
    const d = device();
    const answers = await Promise.all(Array.from({ length: 20 }, () => subscribe(a, d)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await subscriptions()).toHaveLength(1);
  });

  test('at most 10 devices a player: the oldest goes', async () => {
    const all = Array.from({ length: 11 }, () => device());
    for (const d of all) await subscribe(a, d).expect(201);
    const kept = (await subscriptions()).map((s) => s.endpoint);
    expect(kept).toHaveLength(10);
    expect(kept).not.toContain(all[0]?.endpoint);
  });

  test('each role: anonymous 401 on every endpoint; a player, staff and a superuser have their own settings', async () => {
    for (const e of [api.pushSettings, api.setPushSettings, api.subscribePush, api.unsubscribePush]) {
      const url = `${e.method} ${e.path}`;
      const r = await to(t, e).send({});
      expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status: 401, code: 'not_authenticated' });
    }
    for (const who of [a, staff, superuser]) {
      await to(t, api.setPushSettings, { as: who }).send({ results: false, confirmations: true }).expect(200);
      await subscribe(who, device()).expect(201);
      expect((await to(t, api.pushSettings, { as: who }).expect(200)).body).toMatchObject({ results: false, devices: 1 });
    }
    expect((await to(t, api.pushSettings, { as: b }).expect(200)).body).toMatchObject({ results: true, devices: 0 });
  });
});

describe('which messages are pushed', () => {
  test('one push per message and device, written with the message; the same event again writes none', async () => {
    const [d1, d2] = [device(), device()];
    await subscribe(a, d1).expect(201);
    await subscribe(a, d2).expect(201);
    await subscribe(b, device()).expect(201);
    await confirmed(a, 'ticket_confirmed:same');
    await confirmed(a, 'ticket_confirmed:same');
    expect(await deliveries()).toEqual([
      { state: 'queued', tries: 0 },
      { state: 'queued', tries: 0 },
    ]);
  });

  test('a kind switched off pushes nothing; messages of other kinds are never pushed; a device added later gets no old ones', async () => {
    await confirmed(a);
    await subscribe(a, device()).expect(201);
    expect(await deliveries()).toEqual([]);
    await to(t, api.setPushSettings, { as: a }).send({ results: true, confirmations: false }).expect(200);
    await confirmed(a);
    await t.db.tx((tx) =>
      tell(tx, {
        userId: a.id,
        kind: 'payout_sent',
        key: `payout_sent:test:${++seq}`,
        params: { lottery_id: 1, lottery: 'X', lottery_bn: '', ticket: '05-12-23-34-45-07', prize_id: 1, amount: 5 },
      }),
    );
    expect(await deliveries()).toEqual([]);
    await to(t, api.setPushSettings, { as: a }).send({ results: true, confirmations: true }).expect(200);
    await confirmed(a);
    expect(await deliveries()).toHaveLength(1);
  });

  test('a purchase staff approve and a prize the draw gives: each pushed once to the winner’s device, in his language', async () => {
    await t.db.query(`UPDATE users SET language = 'bn' WHERE id = $1`, [a.id]);
    const d = device();
    await subscribe(a, d).expect(201);
    const lottery = await insertLottery(t, { name: 'Weekly Draw', name_bn: 'সাপ্তাহিক ড্র' });
    const res = await buy(t, a, purchase(lottery, '05-12-23-34-45-07', { trx_id: trxId() }));
    expect(res.status).toBe(201);
    await approveByHand(t, res.body.id as number);
    expect((await drawByHand(t, lottery, ['05-12-23-34-45-07'])).status).toBe(201);
    await t.app.push.dispatch();
    const got = payloads(d);
    expect(got.map((p) => p.title)).toEqual(['টিকিট নিশ্চিত', expect.any(String)]);
    expect(got[0]?.body).toContain('সাপ্তাহিক ড্র-এর আপনার টিকিট ০৫-১২-২৩-৩৪-৪৫-০৭');
    expect(got[0]?.url).toBe('/my-lotteries');
    expect(got[1]?.url).toMatch(/^\/user\/prize-claim\/\d+$/);
    expect(await t.app.push.dispatch()).toBe(0);
  });
});

describe('sending to the push service', () => {
  test('encrypted for the device, signed with our VAPID key, with a TTL; decrypted it is the message in the player’s language', async () => {
    const d = device();
    await subscribe(a, d).expect(201);
    await confirmed(a);
    expect(await t.app.push.dispatch()).toBe(1);
    const [r] = service.received;
    expect(r?.headers['content-encoding']).toBe('aes128gcm');
    expect(r?.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
    const key = (await to(t, api.pushSettings, { as: a })).body.public_key as string;
    const claims = vapidClaims(String(r?.headers.authorization), key);
    expect(claims.aud).toBe(service.url);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    const message = await t.db.one<{ id: number }>('SELECT id FROM player_messages');
    expect(JSON.parse(decrypt(d, r?.body as Buffer))).toEqual({
      title: 'Ticket confirmed',
      body: 'Your ticket 05-12-23-34-45-07 for Weekly Draw (TK. 100) is confirmed. Good luck in the draw!',
      url: '/my-lotteries',
      tag: `message-${message?.id}`,
    });
    expect(await deliveries()).toEqual([{ state: 'sent', tries: 1 }]);
    expect((await subscriptions())[0]?.last_success_at).not.toBeNull();
  });

  test('20 senders at once: every push goes exactly once', async () => {
    const devices = [device(), device()];
    for (const d of devices) await subscribe(a, d).expect(201);
    for (let i = 0; i < 5; i++) await confirmed(a);
    const taken = await Promise.all(Array.from({ length: 20 }, () => t.app.push.dispatch()));
    expect(taken.reduce((x, y) => x + y, 0)).toBe(10);
    expect(service.received).toHaveLength(10);
    for (const d of devices) expect(new Set(payloads(d).map((p) => p.tag)).size).toBe(5);
    expect((await deliveries()).every((x) => x.state === 'sent')).toBe(true);
  });

  test('410 and 404: the subscription is deleted with its pushes; other devices still get theirs', async () => {
    const [gone, missing, fine] = [device('gone'), device('missing'), device('fine')];
    service.answer('/push/gone', 410);
    service.answer('/push/missing', 404);
    for (const d of [gone, missing, fine]) await subscribe(a, d).expect(201);
    await confirmed(a);
    await t.app.push.dispatch();
    expect((await subscriptions()).map((s) => s.endpoint)).toEqual([fine.endpoint]);
    expect(await deliveries()).toEqual([{ state: 'sent', tries: 1 }]);
  });

  test('another refusal: tried again by later runs, counted on the device, failed after the last try', async () => {
    const d = device('busy');
    service.answer('/push/busy', 503);
    await subscribe(a, d).expect(201);
    await confirmed(a);
    for (let i = 1; i <= MAX_PUSH_TRIES; i++) {
      expect(await t.app.push.dispatch()).toBe(1);
      expect(await deliveries()).toEqual([{ state: i < MAX_PUSH_TRIES ? 'queued' : 'failed', tries: i }]);
    }
    expect(await t.app.push.dispatch()).toBe(0);
    expect(service.received).toHaveLength(MAX_PUSH_TRIES);
    expect((await subscriptions())[0]?.failure_count).toBe(MAX_PUSH_TRIES);
  });
});

describe('a server without push', () => {
  test('production without VAPID keys: no public key, a subscription refused 409, nothing queued', async () => {
    const p = await startTestApp({ APP_ENV: 'production' });
    try {
      const u = await account(p);
      const get = await to(p, api.pushSettings, { as: u }).expect(200);
      expect(get.body.public_key).toBeNull();
      const r = await to(p, api.subscribePush, { as: u })
        .send(body(testDevice('https://push.example.com/x')))
        .expect(409);
      expect(r.body.code).toBe('push_off');
      expect(await p.app.push.dispatch()).toBe(0);
    } finally {
      await p.close();
    }
  });

  test('production with keys: a local (http) push service refused, an https one taken', async () => {
    const p = await startTestApp({
      APP_ENV: 'production',
      VAPID_PUBLIC_KEY: testDevice('').keys.p256dh,
      VAPID_PRIVATE_KEY: Buffer.alloc(32, 7).toString('base64url'),
      VAPID_SUBJECT: 'mailto:support@bhagya.com.bd',
    });
    try {
      const u = await account(p);
      const r = await to(p, api.subscribePush, { as: u }).send(body(device())).expect(400);
      expect(Object.keys(r.body)).toEqual(['endpoint', 'code']);
      expect(r.body.code).toBe('push_endpoint_invalid');
      await to(p, api.subscribePush, { as: u })
        .send(body(testDevice('https://push.example.com/x')))
        .expect(201);
    } finally {
      await p.close();
    }
  });
});
