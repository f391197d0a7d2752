/**
 * The store of logged-in pages (server/ssr/own-pages.ts) and the database's write count it relies on (`Db.writes`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import { openDb } from '../../server/db/index.ts';
import { OwnPages } from '../../server/ssr/own-pages.ts';

afterEach(() => jest.restoreAllMocks());

const req = (o: { method?: string; url?: string; cookie?: string; lang?: string; encoding?: string } = {}) =>
  ({
    method: o.method ?? 'GET',
    url: o.url ?? '/profile',
    headers: {
      ...(o.cookie === '' ? {} : { cookie: o.cookie ?? 'bh_vid=v; bh_session=s%3Aabc' }),
      'accept-language': o.lang ?? 'en',
      host: 'localhost',
      ...(o.encoding ? { 'accept-encoding': o.encoding } : {}),
    },
  }) as unknown as IncomingMessage;

/** A response that records what is written to it. */
function sink() {
  const out = { status: 0, headers: [] as string[], body: undefined as Buffer | undefined };
  const res = {
    writeHead(status: number, headers: string[]) {
      out.status = status;
      out.headers = headers;
    },
    end(body?: Buffer) {
      out.body = body;
    },
  } as unknown as ServerResponse;
  return { res, out };
}

describe('OwnPages', () => {
  let writes = 0;
  const pages = (ttl = 10_000, max?: number) => new OwnPages(() => writes, ttl, max);
  const later = () => Date.now() + 60_000;

  test('keeps nothing when others may write to the database, or with a TTL of 0', () => {
    expect(new OwnPages(null, 10_000).key(req())).toBeNull();
    expect(new OwnPages(() => 0, 0).key(req())).toBeNull();
    expect(pages().enabled).toBe(true);
  });

  test('a key only for a GET or HEAD with a session cookie, and every input of the render in it', () => {
    const p = pages();
    expect(p.key(req({ method: 'POST' }))).toBeNull();
    expect(p.key(req({ cookie: '' }))).toBeNull();
    expect(p.key(req({ cookie: 'lang=en' }))).toBeNull();
    expect(p.key(req({ method: 'HEAD' }))).toBe(p.key(req()));
    const keys = [req(), req({ url: '/my-lotteries' }), req({ cookie: 'bh_vid=w; bh_session=s%3Aabc' }), req({ lang: 'bn' })].map((r) =>
      p.key(r),
    );
    expect(new Set(keys).size).toBe(4);
  });

  test('an entry is served while the write count stands still, and never again once it moved', () => {
    const p = pages();
    writes = 7;
    p.put('k', 7, later(), '<p>page</p>', ['content-type', 'text/html; charset=utf-8']);
    expect(p.get('k')?.identity.toString()).toBe('<p>page</p>');
    writes = 8;
    expect(p.get('k')).toBeUndefined();
    writes = 7; // a count never goes back; and the entry is gone all the same
    expect(p.get('k')).toBeUndefined();
    expect(p.size).toBe(0);
  });

  test('a page rendered while something was written is sent but not kept', () => {
    const p = pages();
    writes = 3;
    const e = p.put('k', 2, later(), '<p>old</p>', []);
    expect(e.identity.toString()).toBe('<p>old</p>');
    expect(p.get('k')).toBeUndefined();
  });

  test("never past the session's limit nor the TTL", () => {
    const p = pages(10_000);
    writes = 1;
    const now = Date.now();
    p.put('session', 1, now + 5_000, 'a', []);
    p.put('ttl', 1, now + 60_000, 'b', []);
    p.put('over', 1, now - 1, 'c', []);
    expect(p.size).toBe(2);
    jest.spyOn(Date, 'now').mockReturnValue(now + 5_000);
    expect(p.get('session')).toBeUndefined();
    expect(p.get('ttl')).toBeDefined();
    jest.spyOn(Date, 'now').mockReturnValue(now + 10_000);
    expect(p.get('ttl')).toBeUndefined();
  });

  test('bounded in bytes: the oldest entries go first', () => {
    const p = pages(10_000, 4_000);
    writes = 1;
    for (const k of ['a', 'b', 'c', 'd', 'e']) p.put(k, 1, later(), k.repeat(900), []);
    expect(p.size).toBe(4);
    expect(p.get('a')).toBeUndefined();
    expect(p.get('e')).toBeDefined();
    // A page larger than a quarter of the bound is sent, not kept.
    p.put('big', 1, later(), 'x'.repeat(1_100), []);
    expect(p.get('big')).toBeUndefined();
  });

  test('sent plain, or gzip when the request takes it (made once), HEAD without a body', () => {
    const p = pages();
    writes = 1;
    const html = '<p>' + 'kept page '.repeat(200) + '</p>';
    const e = p.put('k', 1, later(), html, ['content-type', 'text/html; charset=utf-8']);
    const plain = sink();
    p.send(req(), plain.res, e);
    expect(plain.out.status).toBe(200);
    expect(plain.out.body?.toString()).toBe(html);
    expect(plain.out.headers).toEqual(['content-type', 'text/html; charset=utf-8', 'content-length', String(Buffer.byteLength(html))]);
    const gz = sink();
    p.send(req({ encoding: 'gzip, deflate, br' }), gz.res, e);
    expect(gz.out.headers).toContain('gzip');
    expect(gunzipSync(gz.out.body as Buffer).toString()).toBe(html);
    const first = e.gzip;
    p.send(req({ encoding: 'gzip' }), sink().res, e);
    expect(e.gzip).toBe(first);
    const head = sink();
    p.send(req({ method: 'HEAD' }), head.res, e);
    expect(head.out.body).toBeUndefined();
  });
});

describe('Db.writes', () => {
  test('counts every statement but a SELECT, and every transaction, committed or not', async () => {
    const db = await openDb({ inMemory: true });
    try {
      const start = db.writes();
      await db.query('CREATE TABLE t (n int)');
      expect(db.writes()).toBe(start + 1);
      await db.query('SELECT * FROM t');
      await db.one(' select count(*) FROM t');
      expect(db.writes()).toBe(start + 1);
      await db.query('INSERT INTO t VALUES (1)');
      await db.query('WITH x AS (UPDATE t SET n = 2 RETURNING n) SELECT * FROM x');
      expect(db.writes()).toBe(start + 3);
      await db.query('INSERT INTO nowhere VALUES (1)').catch(() => undefined); // a failed write counts too
      expect(db.writes()).toBe(start + 4);
      await db.tx(async (t) => {
        await t.query('SELECT n FROM t FOR UPDATE');
      });
      expect(db.writes()).toBe(start + 5);
      await db
        .tx(async (t) => {
          await t.query('DELETE FROM t');
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(db.writes()).toBe(start + 7); // the DELETE and the transaction's end
      expect(await db.query('SELECT n FROM t')).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
    }
  });
});
