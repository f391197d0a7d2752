/**
 * Local stand-ins of the SMS gateways the app speaks to (docs/rules/messages.md#7-sms-gateways), in one HTTP server,
 * state in memory: SSL Wireless's ISMS Plus v3 under `/sslwireless` and Alpha SMS (sms.net.bd) under `/alphasms`, each
 * with the paths, fields, answers and codes of server/notify/gateways/ (the wire formats are defined there once). A
 * development and test tool, never in the production server's bundle.
 *
 * It remembers every request it took (`received`: the gateway, the number, the text as decoded, our reference), refuses
 * a csms_id SSL Wireless has taken the same day (4023), keeps each Alpha SMS request's report (Sent until a test says
 * `report(id, 'Delivered' | 'Failed')`), and fails on demand: `fail(gateway, mode, times)` makes the next `times`
 * sends answer a refusal, a rate limit, HTTP 500 or 503, never answer (`timeout`), or take the message and close the
 * connection without an answer (`lose_answer`).
 *
 * Run alone: `npx --no-install tsx scripts/sms-gateways/stand-in.ts [port]` (loopback only; prints its URL).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ALPHA_SEND_PATH, AlphaSendRequest, type AlphaAnswer, type AlphaReportData } from '../../server/notify/gateways/alphasms.ts';
import { SSL_CODES, SSL_SEND_PATH, SslSendRequest, type SslAnswer } from '../../server/notify/gateways/sslwireless.ts';

/** The credentials the stand-ins accept. */
export const STAND_IN_CREDENTIALS = {
  sslwireless: { apiToken: 'stand-in-ssl-token', sid: 'BHAGYA' },
  alphasms: { apiKey: 'stand-in-alpha-key' },
} as const;

export type StandInGateway = 'sslwireless' | 'alphasms';
export const FAILURE_MODES = ['refuse', 'rate_limit', 'http500', 'http503', 'timeout', 'lose_answer'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export type Received = {
  gateway: StandInGateway;
  /** The number as sent (`8801XXXXXXXXX`). */
  to: string;
  /** The text as the stand-in decoded it (UTF-8). */
  text: string;
  /** SSL Wireless's csms_id; null for Alpha SMS. */
  reference: string | null;
  /** The gateway's reference: SSL's reference_id, Alpha's request_id. */
  ref: string;
};

/** Bengali (or anything outside 7-bit ASCII) goes as Unicode: SSL Wireless says `BN`, else `EN`. */
const smsType = (text: string): 'BN' | 'EN' => ([...text].some((c) => c.charCodeAt(0) > 0x7f) ? 'BN' : 'EN');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
};

export type SmsStandIn = {
  /** http://127.0.0.1:PORT: SSL Wireless at `${url}/sslwireless`, Alpha SMS at `${url}/alphasms`. */
  url: string;
  received: Received[];
  /** The next `times` sends of `gateway` fail as `mode`. */
  fail(gateway: StandInGateway, mode: FailureMode, times?: number): void;
  /** An Alpha SMS request's recipient status from now on (its delivery report). */
  report(requestId: string, status: 'Sent' | 'Delivered' | 'Failed'): void;
  /** How many delivery reports were asked for. */
  reportsAsked(): number;
  close(): Promise<void>;
};

export async function startSmsStandIn(port = 0): Promise<SmsStandIn> {
  const received: Received[] = [];
  const failures: Record<StandInGateway, { mode: FailureMode; times: number } | null> = { sslwireless: null, alphasms: null };
  const csmsIds = new Set<string>();
  const reports = new Map<string, { number: string; status: string }>();
  let sslSeq = 0;
  let alphaSeq = 1000;
  let asked = 0;

  /** The failure due for this send, if any (counted down). */
  const failure = (g: StandInGateway): FailureMode | null => {
    const f = failures[g];
    if (!f || f.times <= 0) return null;
    f.times -= 1;
    return f.mode;
  };

  /** A failure that is not an answer of the gateway's own: no answer at all, or an HTTP error. */
  const transport = (mode: FailureMode, res: ServerResponse): boolean => {
    if (mode === 'timeout') return true; // the request is left without an answer
    if (mode === 'http500' || mode === 'http503') {
      res.writeHead(mode === 'http500' ? 500 : 503, { 'content-type': 'text/html' });
      res.end('<h1>Service unavailable</h1>');
      return true;
    }
    return false;
  };

  function ssl(raw: string, res: ServerResponse): void {
    const mode = failure('sslwireless');
    if (mode && transport(mode, res)) return;
    const answer = (code: keyof typeof SSL_CODES, smsinfo: SslAnswer['smsinfo'] = []): void =>
      json(res, 200, {
        status: code === 200 ? 'SUCCESS' : 'FAILED',
        status_code: code,
        error_message: code === 200 ? '' : SSL_CODES[code],
        smsinfo,
      });
    if (mode === 'refuse') return answer(4001);
    if (mode === 'rate_limit') return answer(4029);
    const body = SslSendRequest.safeParse(parseJson(raw));
    if (!body.success) return answer(4022);
    const b = body.data;
    if (b.api_token !== STAND_IN_CREDENTIALS.sslwireless.apiToken) return answer(4001);
    if (b.sid !== STAND_IN_CREDENTIALS.sslwireless.sid) return answer(4002);
    if (!/^[A-Za-z0-9]{1,20}$/.test(b.csms_id)) return answer(4020);
    if (!/^8801[3-9]\d{8}$/.test(b.msisdn)) return answer(4025);
    if (csmsIds.has(b.csms_id)) return answer(4023);
    csmsIds.add(b.csms_id);
    sslSeq += 1;
    const ref = `5da2f0b5ba3a${String(sslSeq).padStart(7, '0')}`;
    received.push({ gateway: 'sslwireless', to: b.msisdn, text: b.sms, reference: b.csms_id, ref });
    if (mode === 'lose_answer') {
      res.socket?.destroy();
      return;
    }
    answer(200, [
      {
        sms_status: 'SUCCESS',
        status_message: 'Success',
        msisdn: b.msisdn,
        sms_type: smsType(b.sms),
        sms_body: b.sms,
        csms_id: b.csms_id,
        reference_id: ref,
      },
    ]);
  }

  function alphaSend(raw: string, res: ServerResponse): void {
    const mode = failure('alphasms');
    if (mode && transport(mode, res)) return;
    const answer = (a: AlphaAnswer): void => json(res, 200, a);
    if (mode === 'refuse') return answer({ error: 417, msg: 'Insufficient balance', data: null });
    if (mode === 'rate_limit') {
      res.writeHead(429, { 'content-type': 'text/plain' });
      res.end('Too Many Requests');
      return;
    }
    const body = AlphaSendRequest.safeParse(Object.fromEntries(new URLSearchParams(raw)));
    if (!body.success) return answer({ error: 400, msg: 'Missing or invalid parameter', data: null });
    const b = body.data;
    if (b.api_key !== STAND_IN_CREDENTIALS.alphasms.apiKey) return answer({ error: 405, msg: 'Authorization required', data: null });
    const to = b.to.replace(/^\+/, '');
    if (!/^(88)?01[3-9]\d{8}$/.test(to)) return answer({ error: 416, msg: 'No valid number found', data: null });
    alphaSeq += 1;
    const ref = String(alphaSeq);
    received.push({ gateway: 'alphasms', to, text: b.msg, reference: null, ref });
    reports.set(ref, { number: to, status: 'Sent' });
    if (mode === 'lose_answer') {
      res.socket?.destroy();
      return;
    }
    answer({ error: 0, msg: 'Request successfully submitted', data: { request_id: alphaSeq } });
  }

  function alphaReport(id: string, url: URL, res: ServerResponse): void {
    asked += 1;
    if (url.searchParams.get('api_key') !== STAND_IN_CREDENTIALS.alphasms.apiKey)
      return json(res, 200, { error: 405, msg: 'Authorization required', data: null });
    const r = reports.get(id);
    if (!r) return json(res, 200, { error: 400, msg: 'Invalid request ID', data: null });
    const data: AlphaReportData = {
      request_id: Number(id),
      request_status: r.status === 'Sent' ? 'Processing' : 'Complete',
      request_charge: '0.25',
      recipients: [{ number: r.number, status: r.status, charge: '0.25' }],
    };
    json(res, 200, { error: 0, msg: 'Success', data });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    void readBody(req).then((raw) => {
      if (req.method === 'POST' && url.pathname === `/sslwireless${SSL_SEND_PATH}`) return ssl(raw, res);
      if (req.method === 'POST' && url.pathname === `/alphasms${ALPHA_SEND_PATH}`) return alphaSend(raw, res);
      const report = /^\/alphasms\/report\/request\/([^/]+)\/$/.exec(url.pathname);
      if (req.method === 'GET' && report?.[1]) return alphaReport(decodeURIComponent(report[1]), url, res);
      json(res, 404, { detail: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    fail: (gateway, mode, times = 1) => void (failures[gateway] = { mode, times }),
    report: (requestId, status) => {
      const r = reports.get(requestId);
      if (r) r.status = status;
    },
    reportsAsked: () => asked,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const s = await startSmsStandIn(Number(process.argv[2] ?? 0));
  process.stdout.write(`SMS gateway stand-ins at ${s.url}/sslwireless and ${s.url}/alphasms\n`);
}
