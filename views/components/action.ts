/**
 * One way from a posted form to the API and back (docs/decisions/010-one-contract-one-schema.md,
 * docs/rules/pages.md#4-without-javascript): the form read with the request's shared schema, the endpoint
 * called through the page's ApiClient, and its answer made the form's one result shape, `FormResult`: field
 * messages under their inputs, a form message above them, the values to refill, the status.
 */
import { data, type ActionFunction, type ActionFunctionArgs } from 'react-router';
import type { z } from 'zod';
import type { ApiClient } from '../../shared/api-client.ts';
import { errorText, fieldErrors, type ApiErrorBody, type ApiResult } from '../../shared/api-types.ts';
import { apiOf } from '../context.ts';
import { challengeOf } from './challenge-field.tsx';
import type { FormResult } from './form.tsx';
import { key } from './messages.ts';
import { parseForm, type FormParse, type ObjectSchema } from './parse-form.ts';

/** What an action answers with a status: its result as data (react-router's `data()`). */
export type FormReply<R> = ReturnType<typeof data<R>>;

/** A page's status for an API's answer: the API's own 4xx kept, any failure upstream (5xx) a 502. */
export const pageStatus = (status: number): number => (status >= 500 ? 502 : status);

/** An id from a path parameter or a posted field: a positive whole number of at most 15 digits, else null. */
export const idOf = (raw: unknown): string | null => (typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? raw : null);

/** A refusal of the page itself (nothing was called): its form message and status. */
export const refuse = <X extends object = object>(formError: string, status: number, extra?: X): FormReply<FormResult & X> =>
  data({ ...(extra as X), formError }, { status });

/** A form the schema refused: its messages under the fields, a problem of the whole form above it, the values (400). */
export function invalid<X extends object = object>(
  v: Extract<FormParse<ObjectSchema>, { ok: false }>,
  extra?: X,
): FormReply<FormResult & X> {
  return data({ ...(extra as X), errors: v.errors, values: v.values, ...(v.formError ? { formError: v.formError } : {}) }, { status: 400 });
}

/** How an API's refusal shows on a form. */
export type Refusal = {
  /** The form message when the API wrote none: a message key, or a key made from the API's text. */
  failed: string | ((message: string) => string);
  /** The fields whose API messages show under their inputs (default: every field of the answer). */
  fields?: readonly string[];
  /**
   * false (default): the field messages, or where there is none the API's text (else `failed`) above the form; a
   * message of the whole form (non_field_errors) shows above it with field messages too, else `fix` does.
   * true: the field messages and the API's whole text above the form.
   */
  both?: boolean;
  /** The form message beside field messages ("Please correct the errors below"). */
  fix?: string;
};

/** The API's refusal as the form's errors and form message (docs/rules/api.md: field lists, non_field_errors, detail). */
export function refusal(error: ApiErrorBody, o: Refusal): Pick<FormResult, 'errors' | 'formError'> {
  const all = fieldErrors(error);
  const errors = Object.fromEntries(
    Object.entries(all).filter(([k]) => (o.fields ? o.fields.includes(k) : k !== 'non_field_errors' && k !== 'detail')),
  );
  const shown = Object.keys(errors).length > 0;
  const text = typeof o.failed === 'string' ? errorText(error, key(o.failed)) : o.failed(errorText(error, ''));
  const formError = o.both || !shown ? text : (all.non_field_errors ?? o.fix);
  return { ...(shown ? { errors } : {}), ...(formError ? { formError } : {}) };
}

/** The reply to a failed call: `refusal` with the values to refill and the page's status for it. */
export function refused<X extends object = object>(
  r: { status: number; error: ApiErrorBody },
  o: Refusal & { values?: Record<string, string>; extra?: X },
): FormReply<FormResult & X> {
  // A question the API asks (docs/rules/limits.md#1-rate-limits) rides along, for the form to show: a form to fill
  // in again, 400 as for the login page.
  const challenge = challengeOf(r.error);
  return data(
    { ...(o.extra as X), ...refusal(r.error, o), ...(o.values ? { values: o.values } : {}), ...(challenge ? { challenge } : {}) },
    { status: challenge ? 400 : pageStatus(r.status) },
  );
}

/** A refusal of a field made by the page itself, shown as the API's would be (a picture that is not one). */
export const fieldRefusal = (field: string, message: string, status = 400) =>
  ({ ok: false, status, error: { [field]: [message] } }) as const satisfies ApiResult<never>;

/** A form post to one call: how to read the form, which call to make with it, how its refusal shows. */
export type Submission<S extends ObjectSchema, T, X extends object> = Refusal & {
  schema: S;
  /** Fields never sent back to refill the form (passwords, codes). */
  secret?: readonly string[];
  call: (api: ApiClient, input: z.output<S>) => Promise<ApiResult<T>>;
  /** More of the result, on every failure (the idempotency key, when the code was sent). */
  extra?: X;
};

export type Submitted<S extends ObjectSchema, T, X extends object> =
  | { ok: true; data: T; input: z.output<S>; values: Record<string, string>; api: ApiClient }
  | { ok: false; reply: FormReply<FormResult & X> };

/**
 * Reads the form with its schema (refused: 400 with the messages), calls the API with what it parsed, and hands
 * back either the answer or the reply that shows the refusal on the form (a 5xx as 502).
 */
export async function submit<S extends ObjectSchema, T, X extends object = object>(
  form: FormData,
  context: ActionFunctionArgs['context'],
  o: Submission<S, T, X>,
): Promise<Submitted<S, T, X>> {
  const v = parseForm(form, o.schema, o.secret ? { secret: o.secret } : {});
  if (!v.ok) return { ok: false, reply: invalid(o.fix && !v.formError ? { ...v, formError: o.fix } : v, o.extra) };
  const api = apiOf(context);
  const r = await o.call(api, v.data);
  if (r.ok) return { ok: true, data: r.data, input: v.data, values: v.values, api };
  return { ok: false, reply: refused(r, { ...o, values: v.values }) };
}

/**
 * The action of a form that makes one call: `prepare` may set what the form does not carry (path parameters,
 * unticked boxes) or answer at once; `done` turns the answer into a redirect or the result shown.
 */
export function action<S extends ObjectSchema, T, X extends object = object>(
  o: Omit<Submission<S, T, X>, 'call'> & {
    call: (api: ApiClient, input: z.output<S>, args: ActionFunctionArgs) => Promise<ApiResult<T>>;
    prepare?: (form: FormData, args: ActionFunctionArgs) => FormReply<FormResult & X> | undefined;
    done: (reply: T, s: { input: z.output<S>; values: Record<string, string>; form: FormData; args: ActionFunctionArgs }) => unknown;
  },
): ActionFunction {
  return async (args) => {
    const form = await args.request.formData();
    const early = o.prepare?.(form, args);
    if (early) return early;
    const s = await submit(form, args.context, { ...o, call: (api, input) => o.call(api, input, args) });
    if (!s.ok) return s.reply;
    return o.done(s.data, { input: s.input, values: s.values, form, args });
  };
}
