import type { z } from 'zod';
import { problemsByField } from '../../shared/fields.ts';
import { key } from './messages.ts';

type Shape = { shape: Record<string, unknown> };
/** An object schema, or one piped into a transform (its fields are the object's). */
export type ObjectSchema = z.ZodType & (Shape | { in: Shape });

const fieldsOf = (schema: ObjectSchema): string[] => Object.keys('shape' in schema ? schema.shape : schema.in.shape);

export type FormParse<S extends z.ZodType> =
  | { ok: true; data: z.output<S>; values: Record<string, string> }
  | { ok: false; errors: Record<string, string>; formError?: string; values: Record<string, string> };

/**
 * Reads a posted form with the request's shared schema (the same one the API parses): the schema's fields from the
 * form (file inputs and other fields left out), its problems as message keys under each field, a problem of the
 * whole form (non_field_errors) as the form error; `values` to refill the inputs (never passwords).
 */
export function parseForm<S extends ObjectSchema>(form: FormData, schema: S, o: { secret?: readonly string[] } = {}): FormParse<S> {
  const input: Record<string, string> = {};
  for (const name of fieldsOf(schema)) {
    const value = form.get(name);
    if (typeof value === 'string') input[name] = value;
  }
  const values = Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => !o.secret?.includes(k))
      .map(([k, value]) => [k, value.trim()]),
  );
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) return { ok: true, data: r.data as z.output<S>, values };
  const errors: Record<string, string> = {};
  let formError: string | undefined;
  for (const [field, problems] of Object.entries(problemsByField(r.error))) {
    const first = problems[0];
    if (!first) continue;
    const text = key(first.key, first.vars);
    if (field === 'non_field_errors') formError = text;
    else errors[field] = text;
  }
  return { ok: false, errors, values, ...(formError ? { formError } : {}) };
}
