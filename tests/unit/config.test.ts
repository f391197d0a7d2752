import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config.ts';

/** A fresh DATA_DIR for one start; every one made is removed when the file is done. */
const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'bhagya-cfg-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const LIVE = { NOTIFY_TRANSPORT: 'live', SMTP_URL: 'smtps://u:p@mail.example.com:465', SMS_GATEWAY_URL: 'https://sms.example.com/send' };
/** bKash's sandbox with a merchant's credentials (docs/rules/payments.md#7-configuration). */
const SANDBOX = {
  BKASH_MODE: 'sandbox',
  BKASH_APP_KEY: 'key',
  BKASH_APP_SECRET: 'app-secret',
  BKASH_USERNAME: 'merchant',
  BKASH_PASSWORD: 'merchant-pass',
};
/** What production needs besides NODE_ENV: a secret, the live transport, the bKash receiver number and bKash's checkout. */
const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(40), ...LIVE, BKASH_RECEIVER_NUMBER: '01812345678', ...SANDBOX };

describe('loadConfig', () => {
  test('defaults: port 3000, embedded database with demo data, log transport, generated secret kept in DATA_DIR', () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SEED_DEMO).toBe(true);
    expect(c.NOTIFY_TRANSPORT).toBe('log');
    expect(c.secretSource).toBe('generated');
    expect(readFileSync(path.join(d, 'secret.key'), 'utf8').trim()).toBe(c.SECRET_KEY);
    expect(loadConfig({ DATA_DIR: d }).SECRET_KEY).toBe(c.SECRET_KEY); // kept across starts
  });

  test('demo data is off by default in production, even on the embedded database', () => {
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION }).SEED_DEMO).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION, SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
  });

  test('demo data is off by default on PostgreSQL and can be turned on', () => {
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db' }).SEED_DEMO).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
  });

  test.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ API_BASE_URL: 'not a url' }, 'API_BASE_URL'],
    [{ ADMIN_PHONE: '123', ADMIN_PASSWORD: 'long-enough-1' }, 'ADMIN_PHONE'],
    [{ ADMIN_PHONE: '01712345678' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_PHONE: '01712345678', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ NOTIFY_TRANSPORT: 'pigeon' }, 'NOTIFY_TRANSPORT'],
    [{ NODE_ENV: 'production' }, 'SECRET_KEY'],
    [{ SECRET_KEY: 'too-short' }, 'SECRET_KEY'],
    [{ SECRET_KEY_PREVIOUS: 'too-short' }, 'SECRET_KEY_PREVIOUS'],
    [{ BKASH_RECEIVER_NUMBER: '1234' }, 'BKASH_RECEIVER_NUMBER'],
  ])('a bad value stops the start and names the variable: %o', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  test('workers: one per core on PostgreSQL, one on the embedded database, which refuses more; WEB_CONCURRENCY chooses', () => {
    const pg = { DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig(pg).workers).toBe(availableParallelism());
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '3' }).workers).toBe(3);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '1' }).workers).toBe(1);
    expect(loadConfig({ DATA_DIR: dir() }).workers).toBe(1);
    expect(loadConfig({ DATA_DIR: dir(), WEB_CONCURRENCY: '1' }).workers).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dir(), WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY: must be 1 on the embedded database .*set DATABASE_URL for more workers/,
    );
    for (const bad of ['0', '-1', '1.5', 'many', '65'])
      expect(() => loadConfig({ ...pg, WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY/);
  });

  test("the instance's PostgreSQL connections: 10 unless DATABASE_POOL_MAX says, shared by its workers, at least 2 each", () => {
    const pg = { DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '1' }).poolMax).toBe(10);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '2' }).poolMax).toBe(5);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '3', DATABASE_POOL_MAX: '20' }).poolMax).toBe(6);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '8' }).poolMax).toBe(2);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '1', DATABASE_POOL_MAX: '2' }).poolMax).toBe(2);
    for (const bad of ['1', '0', '-3', '2.5', 'ten', '1001'])
      expect(() => loadConfig({ ...pg, DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX/);
  });

  test('defaults for the time limits of the database and of outgoing mail and SMS', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect([c.DB_CONNECT_TIMEOUT_MS, c.DB_STATEMENT_TIMEOUT_MS, c.NOTIFY_TIMEOUT_MS]).toEqual([5000, 30000, 10000]);
    expect(loadConfig({ DATA_DIR: dir(), DB_STATEMENT_TIMEOUT_MS: '0' }).DB_STATEMENT_TIMEOUT_MS).toBe(0);
  });

  test('the password hash cost: 17 by default; tests may lower it, production refuses less than 17', () => {
    expect(loadConfig({ DATA_DIR: dir() }).PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION }).PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({ DATA_DIR: dir(), PASSWORD_HASH_COST: '10' }).PASSWORD_HASH_COST).toBe(10);
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION, PASSWORD_HASH_COST: '18' }).PASSWORD_HASH_COST).toBe(18);
    expect(() => loadConfig({ DATA_DIR: dir(), ...PRODUCTION, PASSWORD_HASH_COST: '16' })).toThrow(
      /PASSWORD_HASH_COST: must be at least 17 in production/,
    );
    for (const bad of ['9', '21', 'x', '12.5'])
      expect(() => loadConfig({ DATA_DIR: dir(), PASSWORD_HASH_COST: bad })).toThrow(/PASSWORD_HASH_COST/);
  });

  test('the bKash receiver number: required in production, a development stand-in elsewhere', () => {
    const { BKASH_RECEIVER_NUMBER: _, ...withoutReceiver } = PRODUCTION;
    expect(() => loadConfig({ DATA_DIR: dir(), ...withoutReceiver })).toThrow(/BKASH_RECEIVER_NUMBER: is required in production/);
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION }).BKASH_RECEIVER_NUMBER).toBe('01812345678');
    expect(loadConfig({ DATA_DIR: dir() }).BKASH_RECEIVER_NUMBER).toBe('01700000000');
  });

  test('PAYOUT_SECOND_APPROVAL_TK: whole taka, 10000 unless set, 0 allowed; anything else stops the start', () => {
    expect(loadConfig({ DATA_DIR: dir() }).PAYOUT_SECOND_APPROVAL_TK).toBe(10_000);
    expect(loadConfig({ DATA_DIR: dir(), PAYOUT_SECOND_APPROVAL_TK: '25000' }).PAYOUT_SECOND_APPROVAL_TK).toBe(25_000);
    expect(loadConfig({ DATA_DIR: dir(), PAYOUT_SECOND_APPROVAL_TK: '0' }).PAYOUT_SECOND_APPROVAL_TK).toBe(0);
    for (const bad of ['10000.50', '-1', '1e5', 'ten', '10,000', '9'.repeat(13)])
      expect(() => loadConfig({ DATA_DIR: dir(), PAYOUT_SECOND_APPROVAL_TK: bad })).toThrow(
        /PAYOUT_SECOND_APPROVAL_TK: must be a whole number/,
      );
  });

  test("the jobs' pace: the reconciliation first 5 s after the start, the sender every 5 s, unless set", () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect([c.RECONCILE_FIRST_MS, c.DISPATCH_EVERY_MS]).toEqual([5_000, 5_000]);
    const t = loadConfig({ DATA_DIR: dir(), RECONCILE_FIRST_MS: '0', DISPATCH_EVERY_MS: '200' });
    expect([t.RECONCILE_FIRST_MS, t.DISPATCH_EVERY_MS]).toEqual([0, 200]);
    for (const bad of ['-1', '1.5', 'soon', '600001'])
      expect(() => loadConfig({ DATA_DIR: dir(), RECONCILE_FIRST_MS: bad })).toThrow(/RECONCILE_FIRST_MS/);
    for (const bad of ['0', '99', '1.5', 'soon', '600001'])
      expect(() => loadConfig({ DATA_DIR: dir(), DISPATCH_EVERY_MS: bad })).toThrow(/DISPATCH_EVERY_MS/);
  });

  test('empty strings count as unset', () => {
    expect(loadConfig({ DATA_DIR: dir(), PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});

describe('NOTIFY_TRANSPORT=live', () => {
  test('needs an SMTP server and an SMS gateway, each named when missing', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), NOTIFY_TRANSPORT: 'live' })).toThrow(/SMTP_URL[\s\S]*SMS_GATEWAY_URL/);
    expect(() => loadConfig({ DATA_DIR: dir(), NOTIFY_TRANSPORT: 'live', SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
    const c = loadConfig({
      DATA_DIR: dir(),
      NOTIFY_TRANSPORT: 'live',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
    });
    expect(c.NOTIFY_TRANSPORT).toBe('live');
  });
});

describe('production (docs/rules/accounts-and-codes.md#8-where-codes-are-sent)', () => {
  test.each([
    ['unset (log by default)', {}],
    ['log', { NOTIFY_TRANSPORT: 'log' }],
  ])('NOTIFY_TRANSPORT %s is refused, naming the variable', (_, transport) => {
    const env = { DATA_DIR: dir(), NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(40), ...transport };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/\bNOTIFY_TRANSPORT: must be live in production/);
  });

  test.each([
    ['empty', ''],
    ['a few spaces', '   '],
    ['32 spaces', ' '.repeat(32)],
    ['tabs and newlines', '\t\n'.repeat(20)],
  ])('a SECRET_KEY that is %s is refused, naming the variable', (_, secret) => {
    const env = { DATA_DIR: dir(), ...PRODUCTION, SECRET_KEY: secret };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/\bSECRET_KEY: (is required in production|is blank)/);
  });

  test('a blank SECRET_KEY is refused outside production too (it would sign with spaces)', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), SECRET_KEY: ' '.repeat(40) })).toThrow(/\bSECRET_KEY: is blank/);
  });

  test('with a secret and the live transport it starts', () => {
    const c = loadConfig({ DATA_DIR: dir(), ...PRODUCTION });
    expect(c.APP_ENV).toBe('production');
    expect(c.secretSource).toBe('env');
  });

  test('the message is one line that names every bad variable', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production' })).toThrow(
      /^invalid configuration: SECRET_KEY: is required in production; NOTIFY_TRANSPORT: must be live in production[^\n]*$/,
    );
  });
});

describe('bKash checkout (docs/rules/payments.md#7-configuration)', () => {
  test('outside production: the simulator in this process, with its own credentials, by default', () => {
    const c = loadConfig({ DATA_DIR: dir(), PORT: '4321' });
    expect(c.bkash).toMatchObject({ mode: 'simulator', baseUrl: 'http://127.0.0.1:4321/_bkash', checkoutOrigins: [] });
    expect(loadConfig({ DATA_DIR: dir(), BKASH_BASE_URL: 'http://127.0.0.1:9/sim/' }).bkash.baseUrl).toBe('http://127.0.0.1:9/sim');
  });

  test('production refuses the simulator, set or by default, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...PRODUCTION, BKASH_MODE: 'simulator' })).toThrow(
      /\bBKASH_MODE: must be sandbox or live in production/,
    );
    const { BKASH_MODE: _m, ...unset } = PRODUCTION;
    expect(() => loadConfig({ DATA_DIR: dir(), ...unset })).toThrow(/\bBKASH_MODE: must be sandbox or live in production/);
  });

  test('sandbox and live need every credential; their addresses are bKash’s unless told', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), BKASH_MODE: 'live', BKASH_APP_KEY: 'k' })).toThrow(
      /BKASH_APP_SECRET: is required with BKASH_MODE=live; BKASH_USERNAME: is required with BKASH_MODE=live; BKASH_PASSWORD: is required/,
    );
    const sandbox = loadConfig({ DATA_DIR: dir(), ...SANDBOX }).bkash;
    expect(sandbox).toEqual({
      mode: 'sandbox',
      baseUrl: 'https://tokenized.sandbox.bka.sh/v1.2.0-beta',
      appKey: 'key',
      appSecret: 'app-secret',
      username: 'merchant',
      password: 'merchant-pass',
      checkoutOrigins: ['https://sandbox.payment.bkash.com'],
      // The payout (B2C) is on bKash's checkout host, with the checkout's credentials unless it has its own.
      payout: {
        baseUrl: 'https://checkout.sandbox.bka.sh/v1.2.0-beta',
        appKey: 'key',
        appSecret: 'app-secret',
        username: 'merchant',
        password: 'merchant-pass',
      },
    });
    const live = loadConfig({ DATA_DIR: dir(), ...SANDBOX, BKASH_MODE: 'live' }).bkash;
    expect(live).toMatchObject({
      baseUrl: 'https://tokenized.pay.bka.sh/v1.2.0-beta',
      checkoutOrigins: ['https://payment.bkash.com'],
      payout: { baseUrl: 'https://checkout.pay.bka.sh/v1.2.0-beta', appKey: 'key' },
    });
    const own = loadConfig({
      DATA_DIR: dir(),
      ...SANDBOX,
      BKASH_PAYOUT_BASE_URL: 'https://b2c.example.com/v1.2.0-beta/',
      BKASH_PAYOUT_APP_KEY: 'payout-key',
      BKASH_PAYOUT_USERNAME: 'payout-user',
    }).bkash.payout;
    expect(own).toEqual({
      baseUrl: 'https://b2c.example.com/v1.2.0-beta',
      appKey: 'payout-key',
      appSecret: 'app-secret',
      username: 'payout-user',
      password: 'merchant-pass',
    });
    expect(() => loadConfig({ DATA_DIR: dir(), BKASH_MODE: 'cash' })).toThrow(/BKASH_MODE/);
  });
});

describe("APP_ENV: the app's mode, apart from the libraries' NODE_ENV", () => {
  test("NODE_ENV's value when unset", () => {
    expect(loadConfig({ DATA_DIR: dir() }).APP_ENV).toBe('development');
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'test' }).APP_ENV).toBe('test');
    expect(loadConfig({ DATA_DIR: dir(), ...PRODUCTION }).APP_ENV).toBe('production');
  });

  test('npm start: NODE_ENV=production for React, APP_ENV=development for the app (no secret, log transport, demo data)', () => {
    const c = loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production', APP_ENV: 'development' });
    expect(c.APP_ENV).toBe('development');
    expect(c.NOTIFY_TRANSPORT).toBe('log');
    expect(c.SEED_DEMO).toBe(true);
    expect(c.secretSource).toBe('generated');
  });

  test("APP_ENV=production asks for production's requirements whatever NODE_ENV says", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), APP_ENV: 'production' })).toThrow(/SECRET_KEY[\s\S]*NOTIFY_TRANSPORT/);
    expect(() => loadConfig({ DATA_DIR: dir(), APP_ENV: 'staging' })).toThrow(/\bAPP_ENV\b/);
  });
});

describe('SMS gateways (docs/rules/messages.md#7-sms-gateways)', () => {
  /** Live, with no SMS gateway's settings. */
  const base = { ...LIVE, SMS_GATEWAY_URL: undefined };
  const production = { ...PRODUCTION, SMS_GATEWAY_URL: undefined };

  test.each([
    ['sslwireless', {}, /SSLWIRELESS_API_TOKEN: is required with NOTIFY_TRANSPORT=live and SMS_GATEWAY=sslwireless[\s\S]*SSLWIRELESS_SID/],
    ['sslwireless', { SSLWIRELESS_API_TOKEN: 't' }, /SSLWIRELESS_SID: is required/],
    ['alphasms', {}, /ALPHASMS_API_KEY: is required with NOTIFY_TRANSPORT=live and SMS_GATEWAY=alphasms/],
    ['generic', {}, /SMS_GATEWAY_URL: is required/],
  ])('production with SMS_GATEWAY=%s refuses to start without its settings, naming each', (gateway, settings, named) => {
    const env = { ...base, ...production, DATA_DIR: dir(), SMS_GATEWAY: gateway, ...settings };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(named);
  });

  test('the fallback gateway needs its settings too, and must be another gateway', () => {
    const ssl = { SMS_GATEWAY: 'sslwireless', SSLWIRELESS_API_TOKEN: 't', SSLWIRELESS_SID: 'BHAGYA' };
    expect(() => loadConfig({ ...base, DATA_DIR: dir(), ...ssl, SMS_FALLBACK_GATEWAY: 'alphasms' })).toThrow(
      /ALPHASMS_API_KEY: is required with NOTIFY_TRANSPORT=live and SMS_FALLBACK_GATEWAY=alphasms/,
    );
    expect(() => loadConfig({ ...base, DATA_DIR: dir(), ...ssl, SMS_FALLBACK_GATEWAY: 'sslwireless' })).toThrow(
      /SMS_FALLBACK_GATEWAY: must be another gateway than SMS_GATEWAY/,
    );
    const c = loadConfig({ ...base, ...production, DATA_DIR: dir(), ...ssl, SMS_FALLBACK_GATEWAY: 'alphasms', ALPHASMS_API_KEY: 'k' });
    expect([c.SMS_GATEWAY, c.SMS_FALLBACK_GATEWAY, c.SSLWIRELESS_URL, c.ALPHASMS_URL]).toEqual([
      'sslwireless',
      'alphasms',
      'https://smsplus.sslwireless.com',
      'https://api.sms.net.bd',
    ]);
  });

  test('an unknown gateway is refused; development keeps the log transport and needs no gateway settings', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), SMS_GATEWAY: 'twilio' })).toThrow(/SMS_GATEWAY/);
    expect(loadConfig({ DATA_DIR: dir(), SMS_GATEWAY: 'sslwireless' }).NOTIFY_TRANSPORT).toBe('log');
  });
});
