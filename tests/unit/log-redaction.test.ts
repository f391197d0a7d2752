/** What the server's log never holds (server/log.ts): passwords, codes, tokens and NID numbers, wherever they are logged. */
import { createLogger } from '../../server/log.ts';

test('passwords, codes and NID numbers in a logged object are redacted', () => {
  const lines: string[] = [];
  const log = createLogger('info', { write: (line: string) => void lines.push(line) });
  log.info(
    { body: { password: 'secret-pass-1', otp: '12345', nid: '19902611234567890', date_of_birth: '1990-01-01', phone: '01712345678' } },
    'request',
  );
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0] as string) as { body: Record<string, string> };
  expect(entry.body).toEqual({
    password: '[redacted]',
    otp: '[redacted]',
    nid: '[redacted]',
    date_of_birth: '[redacted]',
    phone: '01712345678',
  });
  expect(lines[0]).not.toContain('19902611234567890');
});

test("an SMS gateway's request, were it logged, shows neither its credentials nor its text", () => {
  const lines: string[] = [];
  const log = createLogger('info', { write: (line: string) => void lines.push(line) });
  log.info(
    { ssl: { api_token: 't-1', sid: 'BHAGYA', sms: 'code 123456', csms_id: 'bh1' }, alpha: { api_key: 'k-1', msg: 'code 654321' } },
    'gateway',
  );
  expect(JSON.parse(lines[0] as string)).toMatchObject({
    ssl: { api_token: '[redacted]', sid: 'BHAGYA', sms: '[redacted]', csms_id: 'bh1' },
    alpha: { api_key: '[redacted]', msg: '[redacted]' },
  });
});
