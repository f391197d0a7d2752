/** The refusals of the play endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';
import { formatDate } from '../dates.ts';
import type { Language } from '../i18n.ts';
import { formatTaka } from '../money.ts';
import { formatPlayTime, formatTickets } from './reality.ts';

/** A moment (an ISO string) as a refusal's text shows it: the date and time in the language. */
const when = (at: unknown, lng: Language) => formatDate(String(at), lng, { withTime: true }) ?? at;
const until = ({ until: at }: Record<string, unknown>, lng: Language) => ({ until: when(at, lng) });

export const playRefusals = refusals({
  staff_cannot_play: {
    status: 403,
    // The text the player pages show staff in place of their forms (views/lotteries/staff-no-play.tsx).
    text: 'lottery:play.staffCannotPlay',
    when: 'Staff do not play: an account with staff rights cannot buy, give a TrxID, pay or activate a ticket.',
  },
  self_excluded: {
    status: 403,
    text: 'play:api.selfExcluded',
    format: until,
    when: 'The player has excluded himself from play (`until`: when it ends).',
  },
  self_excluded_trx_id: {
    status: 403,
    code: 'self_excluded',
    text: 'play:api.selfExcludedTrxId',
    format: until,
    when: 'A TrxID given while the player has excluded himself: the purchase stays unpaid (`until`: when it ends).',
  },
  time_out: {
    status: 403,
    text: 'play:api.timeOut',
    format: until,
    when: 'The player is taking a break from play (`until`: when it ends).',
  },
  time_out_trx_id: {
    status: 403,
    code: 'time_out',
    text: 'play:api.timeOutTrxId',
    format: until,
    when: 'A TrxID given while the player is taking a break: the purchase stays unpaid (`until`: when it ends).',
  },
  spend_limit: {
    status: 409,
    text: 'play:api.overLimit',
    format: (v, lng) => ({
      period: v.period,
      limit: formatTaka(v.limit as number, lng),
      spent: formatTaka(v.spent as number, lng),
      resets: when(v.resets_at, lng),
    }),
    when: 'The purchase would take the player over a spend limit (`period`, `limit`, `spent`, `resets_at`); exactly at it is allowed.',
  },
  reality_check: {
    status: 409,
    text: 'play:api.realityCheck',
    // The session's length and the tickets in the words and digits the reality check's page shows them with
    // (profile:reality.hours, minutes, tickets), worded by the caller's translator.
    format: (v, lng, t) => ({
      played: formatPlayTime(Number(v.minutes_played), lng, t),
      tickets: formatTickets(Number(v.tickets), lng, t),
      spent: formatTaka(v.spent as number, lng),
    }),
    when: "A reality check is due in the caller's session: nothing is bought until he acknowledges it (the body is the check's state).",
  },
  exclusion_not_shorter: {
    status: 409,
    text: 'play:api.notShorter',
    format: until,
    when: 'A self-exclusion in force ends later than the one asked for (`until`: when it ends); nothing changes.',
  },
  time_out_not_shorter: {
    status: 409,
    text: 'play:api.timeOutNotShorter',
    format: until,
    when: 'A break in force ends later than the one asked for (`until`: when it ends); nothing changes.',
  },
});

/** What keeps a paid play safe refuses it with (checkPlay and refuseStaffPlay): every endpoint that sells lists them. */
export const PLAY_CHECKED = ['staff_cannot_play', 'self_excluded', 'time_out', 'reality_check', 'spend_limit'] as const;
