import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'bhagya-cfg-'));

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
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(40) }).SEED_DEMO).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(40), SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
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
  ])('a bad value stops the start and names the variable: %o', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(new RegExp(`\\b${name}\\b`));
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
