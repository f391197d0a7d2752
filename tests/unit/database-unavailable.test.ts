/**
 * Which errors mean "the database is out of reach" (server/db/unavailable.ts, docs/rules/operations.md#5-when-the-database-goes-away):
 * those are answered 503 `unavailable`; anything else stays a 500 and is logged as a bug.
 */
import { errorAnswer } from '../../server/http/errors.ts';
import { databaseUnavailable } from '../../server/db/unavailable.ts';

const err = (props: Record<string, unknown>) => Object.assign(new Error(String(props.message ?? 'x')), props);

test.each([
  ['refused', err({ code: 'ECONNREFUSED' })],
  ['reset', err({ code: 'ECONNRESET' })],
  ['admin shutdown', err({ code: '57P01' })],
  ['starting up', err({ code: '57P03' })],
  ['connection failure', err({ code: '08006' })],
  ['too many connections', err({ code: '53300' })],
  ['terminated', err({ message: 'Connection terminated unexpectedly' })],
  ['pool timeout', err({ message: 'timeout exceeded when trying to connect' })],
  ['inside an AggregateError', Object.assign(new AggregateError([err({ code: 'ECONNREFUSED' })]), {})],
])('%s: unavailable, 503 with Retry-After', (_name, e) => {
  expect(databaseUnavailable(e)).toBe(true);
  const logged: unknown[] = [];
  const a = errorAnswer(
    e,
    (k: string) => k,
    (x) => logged.push(x),
  );
  expect(a).toEqual({ status: 503, headers: { 'Retry-After': '5' }, body: { detail: 'api:databaseUnavailable', code: 'unavailable' } });
  expect(logged).toEqual([]);
});

test.each([
  ['a unique violation', err({ code: '23505' })],
  ['a syntax error', err({ code: '42601' })],
  ['a statement timeout', err({ code: '57014' })],
  ['a plain bug', new TypeError('x is undefined')],
  ['not an error', 'text'],
])('%s: not unavailable, a 500 logged', (_name, e) => {
  expect(databaseUnavailable(e)).toBe(false);
  const logged: unknown[] = [];
  expect(
    errorAnswer(
      e,
      (k: string) => k,
      (x) => logged.push(x),
    ).status,
  ).toBe(500);
  expect(logged).toHaveLength(1);
});
