/**
 * A stand-in for drand's HTTP relays (docs/rules/draws.md#4-the-beacon), on a local port: tests never call the real
 * network. It serves `/<chain hash>/public/<round>` from the beacons it is given (or as a test's handler says), and
 * counts the requests it saw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHAIN_HASH = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';

/**
 * Real drand quicknet beacons, as drand's relays published them (`https://api.drand.sh/<chain hash>/public/<round>`).
 * Copied from public code that pinned them: rounds 1000 and 20791007 with their randomness from
 * Bas3d-Labs/drand-quicknet-evm contracts/test/fixtures/quicknet-kat.json (fetched from api.drand.sh and api2.drand.sh);
 * round 5928395's signature from a BLS library's example that checks it against quicknet's key (its randomness is
 * SHA-256 of it, computed here, not copied).
 */
export const REAL_BEACONS = [
  {
    round: 1000,
    signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
    randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
  },
  {
    round: 20791007,
    signature: '8d2c8bbc37170dbacc5e280a21d4e195cff5f32a19fd6a58633fa4e4670478b5fb39bc13dd8f8c4372c5a76191198ac5',
    randomness: 'f4ad45db792e14676c62891989b804504e09bf0029cd472143d958649ab3c88a',
  },
] as const;
export const REAL_SIGNATURE_5928395 = 'a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61';

export type Handler = (round: number, req: IncomingMessage, res: ServerResponse) => void;

/** Answers a beacon it knows as drand does, anything else 404 (drand's answer for a round not out yet). */
export const serveBeacons =
  (beacons: readonly { round: number; randomness: string; signature: string }[]): Handler =>
  (round, _req, res) => {
    const b = beacons.find((x) => x.round === round);
    if (!b) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Requested future beacon"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(b));
  };

export type FakeRelay = { url: string; requests: number[]; handler: Handler; close(): Promise<void> };

export async function startFakeRelay(handler: Handler): Promise<FakeRelay> {
  const relay: FakeRelay = {
    url: '',
    requests: [],
    handler,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const m = /^\/([0-9a-f]{64})\/public\/(\d+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m || m[1] !== CHAIN_HASH) {
      res.writeHead(404).end();
      return;
    }
    const round = Number(m[2]);
    relay.requests.push(round);
    relay.handler(round, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A relay that never answers must not keep the test process open.
  const close = relay.close;
  relay.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return relay;
}
