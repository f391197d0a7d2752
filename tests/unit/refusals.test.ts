import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { api } from '../../shared/api/contract.ts';
import { endpoint } from '../../shared/api/endpoint.ts';
import { Refusal, type RefusalSpec } from '../../shared/api/refusal.ts';
import { catalogue, catalogues, refuse, refusal, type RefusalName } from '../../shared/api/refusals.ts';
import { ApiError } from '../../server/http/errors.ts';
import { refusalsOf } from '../../server/http/openapi.ts';
import { refusalAnswer, UndeclaredRefusal } from '../../server/http/refusals.ts';

/** Refusals as data (docs/decisions/064-refusals-as-data.md): the catalogue, the endpoints' lists, and the answer. */
const LOCALES = fileURLToPath(new URL('../../locales/', import.meta.url));
const text = (lng: string, key: string): unknown => {
  const [ns, path] = key.split(':') as [string, string];
  let v: unknown = JSON.parse(readFileSync(`${LOCALES}${lng}/${ns}.json`, 'utf8'));
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
};
const specs = Object.entries(catalogue as Record<string, RefusalSpec>);
const declared = new Set(Object.values(api).flatMap((e) => [...(e.refuses as readonly string[])]));

describe('the catalogue', () => {
  test('names each refusal in one feature only', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [feature, c] of Object.entries(catalogues))
      for (const name of Object.keys(c)) {
        if (seen.has(name)) twice.push(`${name} (${seen.get(name)} and ${feature})`);
        seen.set(name, feature);
      }
    expect(twice).toEqual([]);
    expect(seen.size).toBe(specs.length);
  });

  test.each(specs)('%s has its text in English and in Bengali, and says when it is answered', (_name, spec) => {
    expect(typeof text('en', spec.text)).toBe('string');
    expect(typeof text('bn', spec.text)).toBe('string');
    expect(spec.when.length).toBeGreaterThan(10);
  });

  test("every feature's refusal is one that some endpoint of it may answer", () => {
    const features = Object.entries(catalogues).filter(([f]) => f !== 'common');
    expect(features.flatMap(([, c]) => Object.keys(c)).filter((name) => !declared.has(name))).toEqual([]);
  });

  test('answers a 404 with the code not_found, as a path naming nothing is (the pages match on it)', () => {
    const other = specs.filter(([name, s]) => s.status === 404 && (s.code ?? name) !== 'not_found').map(([name]) => name);
    // The one a client tells apart by its own code (docs/rules/api.md): a device already forgotten is forgotten.
    expect(other).toEqual(['push_subscription_not_found']);
    expect(specs.filter(([, s]) => s.status === 404).length).toBeGreaterThan(10);
  });
});

describe('an answered refusal', () => {
  const t = ((key: string, vars?: Record<string, unknown>) =>
    `${key}${vars && Object.keys(vars).length ? JSON.stringify(vars) : ''}`) as never;
  const e = endpoint({
    method: 'PATCH',
    path: '/api/v1/admin-users/:id/',
    access: 'staff',
    tag: 'users',
    summary: 'test',
    reply: null,
    refuses: ['user_not_found', 'email_taken', 'phone_taken'],
  });

  test('has its status, its code on the wire and its text in the caller’s language', () => {
    const a = refusalAnswer(refusal('user_not_found'), e, t, 'en');
    expect(a).toBeInstanceOf(ApiError);
    expect((a as ApiError).status).toBe(404);
    expect((a as ApiError).body).toEqual({ detail: 'api:userNotFound', code: 'not_found' });
  });

  test('of a field is a field error with its code; refusals of other fields given with it join it', () => {
    expect((refusalAnswer(refusal('email_taken'), e, t, 'en') as ApiError).body).toEqual({
      email: ['api:emailTaken'],
      code: 'email_taken',
    });
    const both = refusalAnswer(refusal('email_taken', { with: [refusal('phone_taken')] }), e, t, 'bn') as ApiError;
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ email: ['api:emailTaken'], phone: ['api:phoneTaken'], code: 'email_taken' });
  });

  test('carries its vars into the text, its extra members and its headers', () => {
    const a = refusalAnswer(
      refusal('user_not_found', { vars: { id: 7 }, extra: { id: 7 }, headers: { 'Retry-After': '3' } }),
      e,
      t,
      'en',
    ) as ApiError;
    expect(a.body).toEqual({ detail: 'api:userNotFound{"id":7}', code: 'not_found', id: 7 });
    expect(a.headers).toEqual({ 'Retry-After': '3' });
  });

  test('that the endpoint does not declare is a bug, not an answer (and says so on console.error)', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const a = refusalAnswer(refusal('staff_superuser_only'), e, t, 'en');
    expect(a).toBeInstanceOf(UndeclaredRefusal);
    expect(a.message).toMatch(/staff_superuser_only.*does not declare/);
    const withUndeclared = refusalAnswer(refusal('email_taken', { with: [refusal('cannot_deactivate_self')] }), e, t, 'en');
    expect(withUndeclared).toBeInstanceOf(UndeclaredRefusal);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  test('refuse() throws the refusal by its name', () => {
    expect(() => refuse('user_not_found' as RefusalName)).toThrow(Refusal);
  });
});

describe('the OpenAPI refusals of an endpoint', () => {
  test('are its shape’s and its own, by their code on the wire, each once per status', () => {
    const listed = refusalsOf(api.updateUser).map((r) => `${r.status} ${r.code}`);
    expect(listed).toEqual([
      '400 invalid',
      '400 parse_error',
      '401 not_authenticated',
      '401 token_not_valid',
      '403 permission_denied',
      '404 not_found',
      '429 throttled',
      '503 unavailable',
      '400 cannot_deactivate_self',
      '400 phone_or_email_needed',
      '400 email_taken',
      '400 phone_taken',
    ]);
  });
});
