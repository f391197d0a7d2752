import { createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A mail server that hangs: it accepts the connection and never says a word (no greeting). nodemailer would wait
 * 30 s for a greeting, 2 min to connect and 10 min on a silent socket by default.
 */
export function hangingSmtp() {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  return {
    server,
    /** How many connections it accepted so far (closed ones too: the client gives up and closes its own). */
    accepted: () => connections,
    listen: () =>
      new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`smtp://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
