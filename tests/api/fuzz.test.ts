/**
 * Attacks from a tool nobody here wrote (docs/rules/api.md#4-fuzzing): the OpenAPI document at /api/openapi.json is
 * valid OpenAPI 3.1 (@seriousme/openapi-schema-validator), and fast-check generates requests for every operation in
 * it — wrong types, huge and empty values, Unicode, control characters, nested objects and arrays, random bytes for
 * the pictures — sent as a visitor, a player and staff. Every answer is no 5xx, a status the document lists for the
 * operation, and a body of its documented schema (success bodies checked with Ajv against the document's own schema);
 * and when no request of a run was accepted, the database is exactly as before it.
 *
 * FUZZ_RUNS sets the requests per operation and caller (12 in the test suites; `npm run proof` runs 500).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { startSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { insertLottery } from './purchase-fixtures.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header' }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
};
type Role = 'visitor' | 'player' | 'staff';

let t: TestApp;
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } };
const tokens: Partial<Record<Role, string>> = {};
const logins: Partial<Record<Role, { phone: string; password: string }>> = {};

const login = async (role: Role) => {
  const who = logins[role];
  if (!who) return;
  await t.db.query('DELETE FROM rate_limits'); // the generated logins may have used up the address's attempts
  const r = await request(t.url).post('/api/token/').send({ phone: who.phone, password: who.password });
  if (r.status !== 200) throw new Error(`login of the ${role} failed: ${r.status}`);
  tokens[role] = r.body.access as string;
};

let bkash: Awaited<ReturnType<typeof startSimulator>>;

beforeAll(async () => {
  // bKash answering (its simulator): a request that reaches it is judged on the API's answer, not on bKash's absence.
  bkash = await startSimulator({ ...SIMULATOR_CREDENTIALS });
  t = await startTestApp({ BKASH_BASE_URL: bkash.baseUrl });
  logins.player = await createUser(t, { phone: '01811100001', name: 'Fuzz Player' });
  logins.staff = await createUser(t, { phone: '01811100002', name: 'Fuzz Officer', is_staff: true });
  await login('player');
  await login('staff');
  await insertLottery(t, { name: 'Fuzz Draw' });
  doc = (await request(t.url).get('/api/openapi.json').expect(200)).body;
});
afterAll(async () => {
  await t.close();
  await bkash.close();
});

test('the OpenAPI document is valid OpenAPI 3.1', async () => {
  const r = await new Validator().validate(doc as unknown as Json);
  expect(r.errors ?? []).toEqual([]);
  expect(r.valid).toBe(true);
});

// ---- What is sent -------------------------------------------------------------------------------------------------

const awkward = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '../../etc/passwd',
  "1' OR '1'='1",
  '<script>alert(1)</script>',
  '০১৭১২৩৪৫৬৭৮',
  'ভাগ্য',
  '\u0000',
  '\u202e\u0645',
  '𝕏'.repeat(50),
  '9'.repeat(40),
  '00000000-0000-4000-8000-000000000000',
);
const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  awkward,
  fc.string({ minLength: 500, maxLength: 2000 }),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(40_000)),
  fc.array(text, { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
);

/** The property names an operation's JSON body or query documents, to aim values at them. */
const propsOf = (schema: Json | undefined): string[] => Object.keys((schema?.properties as Json | undefined) ?? {});

function requestFor(op: Operation) {
  const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const pathNames = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const json = op.requestBody?.content['application/json']?.schema;
  const raw = op.requestBody && !json ? Object.keys(op.requestBody.content) : null;
  const body = raw
    ? fc.record({ bytes: fc.uint8Array({ maxLength: 3000 }), type: fc.constantFrom(...raw, 'text/html', 'application/json') })
    : fc.oneof(
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 5 }),
        fc.dictionary(fc.constantFrom(...propsOf(json), 'extra', '__proto__', 'constructor'), value, { maxKeys: 8 }),
      );
  return fc.record({
    path: fc.tuple(
      ...pathNames.map(() =>
        fc.oneof(
          fc.integer({ min: -1e12, max: 1e12 }).map(String),
          text.map((s) => s.slice(0, 300)),
        ),
      ),
    ),
    query: fc.dictionary(
      fc.constantFrom(...query, 'extra'),
      fc.oneof(
        text.map((s) => s.slice(0, 300)),
        fc.integer().map(String),
      ),
      { maxKeys: 5 },
    ),
    body,
    key: fc.option(fc.oneof(text.map((s) => s.slice(0, 200))), { nil: undefined }),
  });
}

// ---- What every answer must be ------------------------------------------------------------------------------------

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/**
 * An error body as docs/rules/api.md gives it: {detail, code} for the request, or {field: [messages]}, with the code of
 * a rule's refusal of a field beside them (decision 064).
 */
function isErrorBody(b: unknown): boolean {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
  const o = b as Json;
  if (typeof o.detail === 'string') return o.code === undefined || typeof o.code === 'string';
  if (o.code !== undefined && typeof o.code !== 'string') return false;
  const fields = Object.entries(o)
    .filter(([k]) => k !== 'code')
    .map(([, v]) => v);
  return fields.length > 0 && fields.every((v) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string'));
}

/** The database, every table but the rate-limit counters (which count refused requests by design): one digest. */
async function digest(): Promise<string> {
  const tables = await t.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND table_name NOT IN ('rate_limits', 'schema_migrations') ORDER BY table_name`,
  );
  const parts = await t.db.query<{ d: string }>(
    tables.map((x) => `SELECT md5(COALESCE(string_agg(r::text, '|' ORDER BY r::text), '')) AS d FROM "${x.name}" r`).join(' UNION ALL '),
  );
  return parts.map((p) => p.d).join(',');
}

describe.each(['visitor', 'player', 'staff'] as const)('as %s', (role) => {
  test(
    `every operation, ${RUNS} generated requests each: no 5xx, documented status and body, nothing written when refused`,
    async () => {
      /** Each kind of problem once (operation, status, what), with the first request that showed it. */
      const problems = new Map<string, string>();
      const note = (kind: string, example: string) => void (problems.has(kind) || problems.set(kind, example));
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          // Each operation starts with the address's attempts unused and a live session (a generated call may have ended
          // it: log out everywhere).
          await t.db.query('DELETE FROM rate_limits');
          if (role !== 'visitor') await login(role);
          const before = await digest();
          let accepted = false;
          await fc.assert(
            fc.asyncProperty(requestFor(op), async (input) => {
              let i = 0;
              const url =
                path.replace(/\{\w+\}/g, () => encodeURIComponent(String(input.path[i++] ?? ''))) +
                (Object.keys(input.query).length ? `?${new URLSearchParams(input.query as Record<string, string>)}` : '');
              const agent = request(t.url);
              let r = agent[method as 'get'](url).set('Accept-Language', role === 'staff' ? 'bn' : 'en');
              if (tokens[role]) r = r.set('Authorization', `Bearer ${tokens[role]}`);
              if (input.key !== undefined) r = r.set('Idempotency-Key', encodeURIComponent(input.key));
              const b = input.body as { bytes?: Uint8Array; type?: string } | undefined;
              const res =
                method === 'get' || method === 'delete' || b === undefined
                  ? await r
                  : b && typeof b === 'object' && b.bytes instanceof Uint8Array
                    ? await r.set('Content-Type', b.type ?? 'image/png').send(Buffer.from(b.bytes))
                    : await r.set('Content-Type', 'application/json').send(JSON.stringify(b));
              const where = `${method.toUpperCase()} ${url.slice(0, 120)}`;
              const kind = (what: string) => `${op.operationId} ${res.status}: ${what}`;
              if (res.status >= 500) return note(kind('server error'), `${where} ${res.text.slice(0, 200)}`);
              const documented = op.responses[String(res.status)];
              if (!documented) return note(kind('status not in the document'), where);
              if (res.status < 300) {
                accepted = true;
                const schema = documented.content?.['application/json']?.schema;
                if (schema && res.headers['content-type']?.startsWith('application/json') && !ajv.validate(schema, res.body))
                  note(kind('body not of its schema'), `${where} ${ajv.errorsText(ajv.errors).slice(0, 300)}`);
              } else if (!isErrorBody(res.body)) {
                note(kind('not an error body'), `${where} ${res.text.slice(0, 200)}`);
              }
            }),
            { numRuns: RUNS, endOnFailure: true },
          );
          if (!accepted && (await digest()) !== before) note(`${op.operationId}: refused requests changed the database`, path);
        }
      }
      expect(Object.fromEntries(problems)).toEqual({});
    },
    Math.max(60_000, RUNS * 1_500),
  ); // about 250 operations' runs: at full size (proof) minutes, not seconds
});
