/**
 * Errors between the app and the embedded database's thread (server/db/wire-error.ts): what a procedure throws there
 * is what the app catches here (docs/decisions/099-writes-run-on-the-database-thread.md).
 */
import { Refusal } from '../../shared/api/refusal.ts';
import { fromWire, toWire } from '../../server/db/wire-error.ts';

/** Across a thread: the structured clone a message makes of it. */
const across = (err: unknown) => fromWire(structuredClone(toWire(err)));

describe('an error across the thread', () => {
  test('a refusal is a Refusal again, with its vars, extra, headers and the refusals answered with it', () => {
    const err = across(
      new Refusal('spend_limit', {
        vars: { period: 'day', limit: 500 },
        extra: { resets_at: '2026-12-04T18:00:00.000Z' },
        headers: { 'Retry-After': '60' },
        with: [new Refusal('phone_taken', { vars: { phone: '01712345678' } })],
      }),
    );
    expect(err).toBeInstanceOf(Refusal);
    const r = err as Refusal;
    expect(r.refusal).toBe('spend_limit');
    expect(r.details.vars).toEqual({ period: 'day', limit: 500 });
    expect(r.details.extra).toEqual({ resets_at: '2026-12-04T18:00:00.000Z' });
    expect(r.details.headers).toEqual({ 'Retry-After': '60' });
    expect(r.details.with).toHaveLength(1);
    expect(r.details.with?.[0]).toBeInstanceOf(Refusal);
    expect(r.details.with?.[0]?.refusal).toBe('phone_taken');
    expect(r.details.with?.[0]?.details.vars).toEqual({ phone: '01712345678' });
  });

  test('a refusal without details has none', () => {
    const r = across(new Refusal('ticket_taken')) as Refusal;
    expect(r).toBeInstanceOf(Refusal);
    expect(r.details).toEqual({});
  });

  test("a database's error keeps its message and scalar fields (code, constraint), not its objects", () => {
    const pg = Object.assign(new Error('duplicate key value violates unique constraint "t_pkey"'), {
      code: '23505',
      constraint: 't_pkey',
      position: 3,
      internal: false,
      where: null,
      params: [1, 2],
    });
    const err = across(pg);
    expect(err).not.toBeInstanceOf(Refusal);
    expect(err.message).toBe(pg.message);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', position: 3, internal: false, where: null });
    expect(err).not.toHaveProperty('params');
  });

  test('what is not an Error crosses as its text', () => {
    expect(across('boom').message).toBe('boom');
  });
});
