import { z } from 'zod';
import { email, freeText, NAME_MAX, text } from '../fields.ts';

/** The contact form: the same fields on the page and in the API. */
export const ContactBody = z.strictObject({
  name: text(NAME_MAX, 'fieldRequired'),
  email: text(254, 'fieldRequired').pipe(email),
  message: freeText(2000, 'fieldRequired'),
});
