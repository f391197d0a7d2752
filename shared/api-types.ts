/** Shapes of the API's answers as both sides read them (player-side spec §3 and §7). */

export type SessionUser = { user_id: number; name: string; phone: string | null; is_staff: boolean };

export type Lottery = {
  id: number; name: string; description: string; start_date: string; end_date: string;
  ticket_price: number; total_tickets: number; winners: number; total_prize: number;
  published: boolean; featured: boolean; is_result_published: boolean; tickets_sold: number; purchasable: boolean;
};

export type DrawResult = {
  lottery: { id: number; name: string; start_date: string; end_date: string; total_prize: number };
  prizes: { id: number; ticket: string; prize_money: number }[];
};

export type UserProfile = {
  id: number; user_id: number; name: string; email: string | null; phone: string | null; location: string;
  date_joined: string; is_staff: boolean; is_active: boolean; picture_url: string | null;
};

/** Django REST style error body: `{detail, code}` or `{field: [messages]}` (non_field_errors for the form). */
export type ApiErrorBody = { detail?: string; code?: string; wait?: number; identifier?: string } & { [field: string]: unknown };

export type ApiResult<T> =
  | { ok: true; status: number; data: T; total: number | null }
  | { ok: false; status: number; error: ApiErrorBody };

/** The spec's rule for showing a failed call: field lists and non_field_errors joined by '. ', else detail. */
export function errorText(e: ApiErrorBody, fallback: string): string {
  if (typeof e.detail === 'string' && e.detail) return e.detail;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'code' || k === 'wait' || k === 'identifier') continue;
    if (Array.isArray(v)) parts.push(...v.filter((x): x is string => typeof x === 'string'));
    else if (typeof v === 'string' && k === 'error') parts.push(v);
  }
  return parts.length ? parts.join('. ') : fallback;
}

/** Field errors of a body as `{field: firstMessage}` for showing under inputs. */
export function fieldErrors(e: ApiErrorBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e)) {
    if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}
