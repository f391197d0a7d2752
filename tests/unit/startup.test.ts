/** The one line a failed start prints (server/startup.ts; the process itself in tests/api/startup.test.ts). */
import { ConfigError } from '../../server/config.ts';
import { startupFailure } from '../../server/startup.ts';

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra });
const PG = 'postgres://bhagya:s3cret@db.internal:6543/bhagya';

test.each([
  ['a bad configuration', new ConfigError('invalid configuration: PORT: too big'), 'prepare', {}, 'invalid configuration: PORT: too big'],
  [
    'a refused connection (both addresses of localhost)',
    Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:6543', 'ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
    'prepare',
    { databaseUrl: PG },
    'the database (PostgreSQL at db.internal:6543/bhagya) refused the connection (ECONNREFUSED); check DATABASE_URL and that PostgreSQL is running',
  ],
  [
    'an unknown host',
    withCode('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND'),
    'prepare',
    { databaseUrl: PG },
    'the database (PostgreSQL at db.internal:6543/bhagya) has a host name that does not resolve (ENOTFOUND)',
  ],
  [
    'a wrong password',
    withCode('password authentication failed for user "bhagya"', '28P01'),
    'prepare',
    { databaseUrl: PG },
    'the database (PostgreSQL at db.internal:6543/bhagya) refused the user name or password: password authentication failed for user "bhagya"',
  ],
  [
    'a missing database',
    withCode('database "bhagya" does not exist', '3D000'),
    'prepare',
    { databaseUrl: PG },
    'has no such database: database "bhagya" does not exist',
  ],
  [
    'another SQL error',
    withCode('relation "x" does not exist', '42P01'),
    'prepare',
    { databaseUrl: PG },
    'failed: relation "x" does not exist (SQLSTATE 42P01)',
  ],
  [
    'a connection timeout',
    new Error('Connection terminated due to connection timeout'),
    'prepare',
    { databaseUrl: PG },
    'did not answer in time',
  ],
  [
    'a DATA_DIR that cannot be written',
    withCode("EACCES: permission denied, mkdir '/srv/data'", 'EACCES', { path: '/srv/data' }),
    'prepare',
    {},
    'cannot write /srv/data (EACCES); check DATA_DIR',
  ],
  [
    'a port in use',
    withCode('listen EADDRINUSE', 'EADDRINUSE'),
    'listen',
    { port: 3000, host: '0.0.0.0' },
    'port 3000 on 0.0.0.0 is already in use (another server is running there); stop it or set PORT',
  ],
  ['a privileged port', withCode('listen EACCES', 'EACCES'), 'listen', { port: 80, host: '0.0.0.0' }, 'not allowed to listen on port 80'],
  ['anything else', new Error('locales/en missing\n    at x (y.ts:1:1)'), 'prepare', {}, 'Bhagya cannot start: locales/en missing'],
] as const)('%s', (_, err, step, where, expected) => {
  const line = startupFailure(err, step, where);
  expect(line.startsWith('Bhagya cannot start: ')).toBe(true);
  expect(line).toContain(expected);
  expect(line).not.toContain('\n');
  expect(line).not.toContain('s3cret');
});
