/**
 * Push notifications (docs/rules/messages.md#6-push-notifications): which messages each kind pushes, what a push
 * carries and how the service worker shows and opens it, the subscription's schema, and the VAPID configuration.
 */
import { createECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pushNotice, pushTarget } from '../../client/sw-rules.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { MESSAGE_KINDS } from '../../shared/messages/kinds.ts';
import { PUSH_BODY_MAX, PUSHED, pushKindOf, pushPayload } from '../../shared/push/kinds.ts';
import { isPushEndpoint, PushSubscriptionBody } from '../../shared/push/schemas.ts';

describe('which messages are pushed', () => {
  test('results: a prize won; confirmations: the answer to a purchase; nothing else, and no message in two kinds', () => {
    expect(pushKindOf('prize_won')).toBe('results');
    for (const k of ['ticket_confirmed', 'ticket_rejected', 'payment_refunded'] as const) expect(pushKindOf(k)).toBe('confirmations');
    for (const k of ['claim_reminder', 'new_lottery', 'payout_sent', 'payout_failed', 'prize_withheld'] as const)
      expect(pushKindOf(k)).toBeNull();
    const all = [...PUSHED.results, ...PUSHED.confirmations];
    expect(new Set(all).size).toBe(all.length);
    for (const k of all) expect(MESSAGE_KINDS).toContain(k);
  });
});

describe('what a push carries', () => {
  test('the title, the text and the link of the message, tagged with its id', () => {
    expect(pushPayload(42, { title: 'Ticket confirmed', text: 'Your ticket …', link: '/my-lotteries' })).toEqual({
      title: 'Ticket confirmed',
      body: 'Your ticket …',
      url: '/my-lotteries',
      tag: 'message-42',
    });
  });

  test('a long text is cut to fit a notification, by whole characters (Bengali too), ending in …', () => {
    const long = 'পুরস্কার '.repeat(100);
    const p = pushPayload(1, { title: 't', text: long, link: '/' });
    expect([...p.body]).toHaveLength(PUSH_BODY_MAX);
    expect(p.body.endsWith('…')).toBe(true);
    expect(long.startsWith(p.body.slice(0, -1))).toBe(true);
  });

  test('a link that is not a path of this site leads to the notifications page', () => {
    for (const link of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', ''])
      expect(pushPayload(1, { title: 't', text: 'x', link }).url).toBe('/notifications');
  });
});

describe('the service worker', () => {
  test('a push shows its title, text, tag and the app’s icon, and remembers where it leads', () => {
    expect(pushNotice({ title: 'T', body: 'B', url: '/my-lotteries', tag: 'message-1' }, '/icons/icon-192.png', 'Bhagya')).toEqual({
      title: 'T',
      options: { body: 'B', icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', tag: 'message-1', data: { url: '/my-lotteries' } },
    });
  });

  test('a push that is not ours still shows something, and leads to the notifications page', () => {
    for (const data of [
      null,
      'text',
      42,
      { title: 5, url: 'https://evil.example/' },
      { url: '//evil.example' },
      { url: '/\\evil.example' },
    ]) {
      const n = pushNotice(data, '/i.png', 'Bhagya');
      expect(n.title).toBe('Bhagya');
      expect(n.options.data.url).toBe('/notifications');
    }
  });

  test('a tap opens the path on this site, never another site', () => {
    expect(pushTarget({ url: '/user/prize-claim/3' }, 'https://bhagya.com.bd')).toBe('https://bhagya.com.bd/user/prize-claim/3');
    for (const data of [undefined, null, { url: 'https://evil.example/' }, { url: '//evil.example/' }, { url: 7 }])
      expect(pushTarget(data, 'https://bhagya.com.bd')).toBe('https://bhagya.com.bd/notifications');
  });
});

describe('a subscription as the API takes it', () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = { p256dh: ecdh.getPublicKey('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };

  test('push services are https; http only on this machine (tests), refused in production by the server', () => {
    expect(isPushEndpoint('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(isPushEndpoint('http://127.0.0.1:8080/push/1')).toBe(true);
    expect(isPushEndpoint('http://localhost/push/1')).toBe(true);
    for (const bad of ['http://example.com/x', 'http://127.0.0.2/x', 'ftp://x/y', 'https://u:p@x.example/', 'x', ''])
      expect(isPushEndpoint(bad)).toBe(false);
  });

  test('keys: the 65-byte uncompressed point and the 16-byte secret, padding dropped', () => {
    const ok = PushSubscriptionBody.parse({
      endpoint: 'https://push.example/x',
      keys: { p256dh: `${keys.p256dh}=`, auth: `${keys.auth}==` },
    });
    expect(ok.keys).toEqual(keys);
    const wrong = [
      { ...keys, p256dh: keys.p256dh.slice(2) },
      { ...keys, p256dh: Buffer.concat([Buffer.from([3]), ecdh.getPublicKey().subarray(1)]).toString('base64url') },
      { ...keys, auth: Buffer.alloc(15).toString('base64url') },
      { ...keys, auth: Buffer.alloc(17).toString('base64url') },
    ];
    for (const k of wrong) expect(PushSubscriptionBody.safeParse({ endpoint: 'https://push.example/x', keys: k }).success).toBe(false);
  });
});

describe('VAPID configuration', () => {
  const made: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'bhagya-vapid-'));
    made.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const PRODUCTION = {
    NODE_ENV: 'production',
    SECRET_KEY: 'k'.repeat(40),
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtps://u:p@mail.example.com:465',
    SMS_GATEWAY_URL: 'https://sms.example.com/send',
    BKASH_RECEIVER_NUMBER: '01812345678',
    BKASH_MODE: 'sandbox',
    BKASH_APP_KEY: 'key',
    BKASH_APP_SECRET: 'app-secret',
    BKASH_USERNAME: 'merchant',
    BKASH_PASSWORD: 'merchant-pass',
  };
  const pair = () => {
    const e = createECDH('prime256v1');
    e.generateKeys();
    return { VAPID_PUBLIC_KEY: e.getPublicKey('base64url'), VAPID_PRIVATE_KEY: Buffer.alloc(32, 9).toString('base64url') };
  };

  test('outside production without keys: a pair made once in DATA_DIR (owner only), the same after a restart', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d }).push;
    expect(first).toMatchObject({
      publicKey: expect.stringMatching(/^[\w-]{87}$/),
      privateKey: expect.stringMatching(/^[\w-]{43}$/),
      source: 'generated',
    });
    expect(first?.subject).toBe('mailto:support@bhagya.com.bd');
    expect(loadConfig({ DATA_DIR: d }).push).toEqual(first);
    expect(statSync(path.join(d, 'vapid.json')).mode & 0o077).toBe(0);
    expect(JSON.parse(readFileSync(path.join(d, 'vapid.json'), 'utf8'))).toEqual({
      publicKey: first?.publicKey,
      privateKey: first?.privateKey,
    });
  });

  test('production without keys: push is off; with all three: on, from the environment', () => {
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dir() }).push).toBeNull();
    const keys = pair();
    expect(loadConfig({ ...PRODUCTION, ...keys, VAPID_SUBJECT: 'https://bhagya.com.bd', DATA_DIR: dir() }).push).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
      subject: 'https://bhagya.com.bd',
      source: 'env',
    });
  });

  test('one or two of the three, a bad key or subject: the start stops naming the variable, never showing the private key', () => {
    const keys = pair();
    const fails = (env: Record<string, string>, name: string) => {
      let err: unknown;
      try {
        loadConfig({ DATA_DIR: dir(), ...env });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(name);
      expect((err as Error).message).not.toContain(keys.VAPID_PRIVATE_KEY);
    };
    fails({ VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY }, 'VAPID_PRIVATE_KEY');
    fails({ ...keys }, 'VAPID_SUBJECT');
    fails({ ...keys, VAPID_SUBJECT: 'support@bhagya.com.bd' }, 'VAPID_SUBJECT');
    fails({ ...keys, VAPID_SUBJECT: 'http://bhagya.com.bd' }, 'VAPID_SUBJECT');
    fails({ ...keys, VAPID_PUBLIC_KEY: 'short', VAPID_SUBJECT: 'mailto:a@b.cd' }, 'VAPID_PUBLIC_KEY');
    fails({ ...keys, VAPID_PRIVATE_KEY: `${keys.VAPID_PRIVATE_KEY}x`, VAPID_SUBJECT: 'mailto:a@b.cd' }, 'VAPID_PRIVATE_KEY');
  });
});
