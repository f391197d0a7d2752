import { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { refusalSpec } from './refusals.ts';

type Json = Record<string, unknown>;

const schemaOf = (s: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
};

const ERROR_BODY: Json = {
  type: 'object',
  description: 'Django REST style: `{detail, code}` for the request as a whole, or `{field: [messages]}` (non_field_errors for the form).',
  additionalProperties: true,
};

type Listed = { code: string; status: number; when: string };

/** The refusals an endpoint's shape gives it, whatever it lists (run() in server/http/route.ts answers them). */
export function shapeRefusals(e: Endpoint): Listed[] {
  const out: Listed[] = [];
  if (e.body || e.query || e.raw || e.method !== 'GET')
    out.push(
      { code: 'invalid', status: 400, when: "Invalid input: `{field: [messages]}` in the caller's language (no `code` member)." },
      { code: 'parse_error', status: 400, when: 'The body is not JSON.' },
    );
  if (e.access !== 'public')
    out.push(
      { code: 'not_authenticated', status: 401, when: 'No access token.' },
      { code: 'token_not_valid', status: 401, when: 'The access token is not valid, or its session has ended.' },
    );
  if (e.access === 'staff') out.push({ code: 'permission_denied', status: 403, when: 'Not staff.' });
  if (e.params) out.push({ code: 'not_found', status: 404, when: 'The path names nothing there is.' });
  out.push(
    { code: 'throttled', status: 429, when: 'Too many requests: `wait` seconds, also in Retry-After.' },
    { code: 'unavailable', status: 503, when: 'The database is out of reach for a moment: try again after Retry-After seconds.' },
  );
  return out;
}

/** Every refusal an endpoint may answer: its shape's, then those it lists (each once, by its code on the wire). */
export function refusalsOf(e: Endpoint): Listed[] {
  const out = shapeRefusals(e);
  for (const name of e.refuses) {
    const spec = refusalSpec(name);
    if (!spec) continue;
    const code = spec.code ?? name;
    const same = out.find((x) => x.code === code && x.status === spec.status);
    if (same) same.when = `${same.when} ${spec.when}`;
    else out.push({ code, status: spec.status, when: spec.when });
  }
  return out;
}

const errorsFor = (e: Endpoint): Record<string, Json> => {
  const out: Record<string, Json> = {};
  const err = (description: string, codes?: Listed[]) => ({
    description,
    ...(codes ? { 'x-codes': codes.map((c) => c.code) } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  // Its refusals as data (docs/decisions/064-refusals-as-data.md): exactly the codes it may answer, per status.
  const byStatus = new Map<number, Listed[]>();
  for (const r of refusalsOf(e)) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), r]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b))
    out[String(status)] = err(codes.map((c) => `\`${c.code}\`: ${c.when}`).join(' '), codes);
  return out;
};

/** OpenAPI 3.1 of the API, made from the contract (shared/api/contract.ts): what a mobile-app developer reads first. */
export function openApiDocument(endpoints: Record<string, Endpoint>, info: { version: string }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [id, e] of Object.entries(endpoints)) {
    const path = e.path.replace(/:(\w+)/g, '{$1}');
    const parameters: Json[] = [];
    for (const [where, schema] of [
      ['path', e.params],
      ['query', e.query],
    ] as const) {
      if (!schema) continue;
      const props = (schemaOf(schema, 'input').properties ?? {}) as Record<string, Json>;
      for (const [name, s] of Object.entries(props)) parameters.push({ name, in: where, required: where === 'path', schema: s });
    }
    if (e.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'A retry with the same key answers with what the first request made.',
        schema: { type: 'string', minLength: 1, maxLength: 100 },
      });
    }
    const op: Json = {
      operationId: id,
      summary: e.summary,
      tags: [e.tag],
      ...(e.access === 'public' ? {} : { security: [{ bearer: [] }] }),
      ...(parameters.length ? { parameters } : {}),
      ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(e.body, 'input') } } } } : {}),
      ...(e.raw
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(e.raw.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
            },
          }
        : {}),
      responses: {
        [String(e.status ?? 200)]: {
          description: 'Success',
          ...(e.paged ? { headers: { 'X-Total-Count': { description: 'Rows in the whole list', schema: { type: 'integer' } } } } : {}),
          ...(e.reply ? { content: { 'application/json': { schema: schemaOf(e.reply, 'output') } } } : {}),
        },
        ...errorsFor(e),
      },
    };
    (paths[path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bhagya API',
      version: info.version,
      description: 'The lottery API: bearer JWT from POST /api/token/. Send Accept-Language: en or bn for messages.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas: { Error: ERROR_BODY } },
    paths,
  };
}
