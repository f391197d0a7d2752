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

/**
 * The whole document of a finished render, as bytes. React writes it to a plain sink rather than a stream.Writable:
 * the Writable's machinery for each of React's chunks cost more than the render itself saved over `renderToString`
 * (bench/RESULTS.md, issue 14). React asks of its destination only write, end and listeners (drain, error, close), which
 * a sink that takes everything at once never fires.
 */
export function collect(r: Rendering): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Uint8Array[] = [];
    const sink = {
      write(chunk: Uint8Array | string) {
        parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        return true;
      },
      end() {
        resolve(Buffer.concat(parts));
        return sink;
      },
      on: () => sink,
      once: () => sink,
      removeListener: () => sink,
      emit: () => true,
    };
    r.pipe(sink as unknown as NodeJS.WritableStream);
  });
}
