import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, gunzipSync } from 'node:zlib';
import { Suspense, use } from 'react';
import express from 'express';
import { sendStreamed } from '../../server/ssr/send.ts';
import { collect, startRender } from '../../server/ssr/stream.ts';

/** A document whose list waits for `list` (a promise) inside a Suspense boundary, after the top bar. */
function Page({ list }: { list: Promise<string> }) {
  const List = () => <ul id="list">{use(list)}</ul>;
  return (
    <html lang="en">
      <body>
        <header>TOP BAR</header>
        <Suspense fallback={<p>…</p>}>
          <List />
        </Suspense>
      </body>
    </html>
  );
}

const later = (ms: number, value: string) => new Promise<string>((r) => setTimeout(() => r(value), ms));
const noLateError = () => {
  throw new Error('no error expected');
};

type Got = { status: number; headers: http.IncomingHttpHeaders; firstMs: number; chunks: { at: number; early: boolean; bytes: Buffer }[] };

/** A promise the test settles itself: the page's data comes when the test says so, however slow the machine is. */
function gate(value: string): { promise: Promise<string>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<string>((r) => (open = () => r(value)));
  return { promise, open };
}

/** Serves one page with sendStreamed and fetches it raw, noting when each chunk came. */
async function fetchStreamed(
  make: () => Promise<Parameters<typeof sendStreamed>[3]>,
  method = 'GET',
  encoding = 'gzip',
  /** Told of each chunk as it comes; answers true once the test has let the page's data come. */
  onChunk: (chunks: Buffer[]) => boolean = () => true,
): Promise<Got> {
  const app = express();
  app.all('/', async (req, res) => sendStreamed(req, res, 200, await make()));
  const server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<Got>((resolve, reject) => {
      const start = performance.now();
      const req = http.request({ port, method, path: '/', headers: { 'accept-encoding': encoding } }, (res) => {
        const got: Got = { status: res.statusCode ?? 0, headers: res.headers, firstMs: performance.now() - start, chunks: [] };
        let released = false;
        res.on('data', (c: Buffer) => {
          got.chunks.push({ at: performance.now() - start, early: !released, bytes: c });
          if (!released) released = onChunk(got.chunks.map((x) => x.bytes));
        });
        res.on('end', () => resolve(got));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

describe('pages rendered with React stream (docs/decisions/028-streaming-render.md)', () => {
  test('a page waiting on data streams its shell first, through gzip, and ends with the data in it', async () => {
    // The list's data comes only once the browser has the whole top bar: the data cannot be what sent it.
    const data = gate('THE LIST');
    const readable = (chunks: Buffer[]) => gunzipSync(Buffer.concat(chunks), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    const got = await fetchStreamed(
      () => startRender(<Page list={data.promise} />, { wait: 'shell', nonce: 'n0nce', onLateError: noLateError }),
      'GET',
      'gzip',
      (chunks) => {
        if (!readable(chunks).includes('</header>')) return false;
        data.open();
        return true;
      },
    );
    expect(got.status).toBe(200);
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(got.headers['content-length']).toBeUndefined();
    expect(got.headers['content-encoding']).toBe('gzip');
    expect(got.headers['cache-control']).toBe('private, no-store');
    // The shell left before the data was there, and could be read on its own (gzip flushed after it).
    const early = got.chunks.filter((c) => c.early).map((c) => c.bytes);
    const shell = readable(early);
    expect(shell).toContain('TOP BAR');
    expect(shell).not.toContain('THE LIST');
    const html = gunzipSync(Buffer.concat(got.chunks.map((c) => c.bytes))).toString('utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('TOP BAR');
    expect(html).toContain('THE LIST');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    // React's own inline scripts (moving the late part into place) carry the response's nonce.
    for (const m of html.matchAll(/<script\b[^>]*>/g)) expect(m[0]).toContain('nonce="n0nce"');
  });

  test('a page that is all rendered at its shell goes in one go, with its length', async () => {
    const got = await fetchStreamed(() =>
      startRender(<Page list={Promise.resolve('READY')} />, { wait: 'all', nonce: undefined, onLateError: noLateError }),
    );
    const body = Buffer.concat(got.chunks.map((c) => c.bytes));
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(Number(got.headers['content-length'])).toBe(body.length);
    expect(gunzipSync(body).toString('utf8')).toContain('READY');
  });

  test('without gzip in Accept-Encoding the stream is plain', async () => {
    const got = await fetchStreamed(
      () => startRender(<Page list={later(50, 'PLAIN')} />, { wait: 'shell', nonce: undefined, onLateError: noLateError }),
      'GET',
      'identity',
    );
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(Buffer.concat(got.chunks.map((c) => c.bytes)).toString('utf8')).toContain('PLAIN');
  });

  test('HEAD gets the headers of a streamed page and no body', async () => {
    const got = await fetchStreamed(
      () => startRender(<Page list={later(50, 'x')} />, { wait: 'shell', nonce: undefined, onLateError: noLateError }),
      'HEAD',
    );
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(got.chunks).toHaveLength(0);
  });

  test('a render error before the shell rejects (the server answers 500)', async () => {
    const Broken = () => {
      throw new Error('secret internals');
    };
    await expect(startRender(<Broken />, { wait: 'shell', nonce: undefined, onLateError: noLateError })).rejects.toThrow(
      'secret internals',
    );
  });

  test('an error after the shell is reported, and the document still ends', async () => {
    const late: unknown[] = [];
    const failing = new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late failure')), 30));
    const page = await startRender(<Page list={failing} />, { wait: 'shell', nonce: undefined, onLateError: (e) => late.push(e) });
    const html = (await collect(page)).toString('utf8');
    expect(late).toHaveLength(1);
    expect(html).toContain('TOP BAR');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  test('a page collected whole is never kept with a part missing: an error rejects it', async () => {
    const failing = new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late failure')), 30));
    await expect(startRender(<Page list={failing} />, { wait: 'all', nonce: undefined, onLateError: noLateError })).rejects.toThrow(
      'late failure',
    );
  });
});
