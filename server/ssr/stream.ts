import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

/**
 * A document rendered with React's stream (docs/decisions/028-streaming-render.md). `ready` tells whether the whole
 * document is rendered already; `pipe` writes it (React flushes the destination, e.g. a gzip stream, after each batch
 * so that the shell goes out first) and ends it; `abort` stops a render whose visitor left.
 */
export type Rendering = {
  readonly ready: boolean;
  pipe<W extends NodeJS.WritableStream>(destination: W): W;
  abort(reason?: unknown): void;
};

/**
 * Starts rendering `doc` and resolves when its shell is ready (`wait: 'shell'`: a page streamed to its visitor) or
 * when all of it is (`wait: 'all'`: a page collected once, to be kept or hashed). A render error before the shell
 * rejects (the caller answers 500), and so does any error of a page collected whole; one after a streamed shell goes
 * to `onLateError`, and React ends the document, leaving the failed part to the browser. React is given no digest
 * and no message to put in the page.
 */
export function startRender(
  doc: ReactNode,
  opts: { wait: 'shell' | 'all'; nonce: string | undefined; onLateError: (err: unknown) => void },
): Promise<Rendering> {
  return new Promise((resolve, reject) => {
    let shell = false;
    let all = false;
    let aborted = false;
    const rendering: Rendering = {
      get ready() {
        return all;
      },
      pipe: (destination) => stream.pipe(destination),
      abort: (reason) => {
        aborted = true;
        stream.abort(reason);
      },
    };
    const stream = renderToPipeableStream(doc, {
      ...(opts.nonce ? { nonce: opts.nonce } : {}),
      onShellReady() {
        shell = true;
        if (opts.wait === 'shell') resolve(rendering);
      },
      onAllReady() {
        all = true;
        if (opts.wait === 'all') resolve(rendering);
      },
      onShellError(err) {
        reject(err);
      },
      onError(err) {
        // Before the shell, onShellError answers; an aborted render's pending parts are no error of the page. A page
        // collected whole is never kept or sent with a part missing: the error answers it.
        if (!shell || aborted) return;
        if (opts.wait === 'all') reject(err);
        else opts.onLateError(err);
      },
    });
  });
}

/** The whole document of a finished render, as bytes. */
export function collect(r: Rendering): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        parts.push(chunk);
        done();
      },
    });
    sink.on('finish', () => resolve(Buffer.concat(parts)));
    sink.on('error', reject);
    r.pipe(sink);
  });
}
