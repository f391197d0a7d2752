/** The play endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import {
  LimitsBody,
  PlayLimits,
  RealityCheck,
  RealityIntervalBody,
  SelfExclusionBody,
  StaffPlayLimits,
  TimeOutBody,
  TopBar,
} from './schemas.ts';

export const playEndpoints = {
  // Keeping play safe (docs/rules/play-safe.md) --------------------------------------------------------
  myLimits: endpoint({
    method: 'GET',
    path: '/api/v1/my-limits/',
    access: 'user',
    tag: 'play',
    reply: PlayLimits,
    refuses: [],
    summary:
      "The caller's spend limits in force, a raise waiting and when it takes effect, what he spent in each period (day, week, " +
      'month in Dhaka time) and when each starts again, and his self-exclusion.',
  }),
  setMyLimits: endpoint({
    method: 'PUT',
    path: '/api/v1/my-limits/',
    access: 'user',
    tag: 'play',
    body: LimitsBody,
    reply: PlayLimits,
    refuses: [],
    summary:
      "Sets the caller's day, week and month limits (whole taka, null for none): a lower or first limit applies at once, " +
      'a higher one or a limit removed 24 hours later.',
  }),
  selfExclusion: endpoint({
    method: 'POST',
    path: '/api/v1/self-exclusion/',
    access: 'user',
    tag: 'play',
    body: SelfExclusionBody,
    reply: PlayLimits,
    refuses: ['exclusion_not_shorter'],
    summary:
      'Excludes the caller from play for 6 months, 1 year or 5 years (confirm: true): no purchase, checkout or activation until ' +
      'then; prizes can still be claimed. It cannot be shortened or lifted early; a second call may only extend it (409 otherwise).',
  }),
  timeOut: endpoint({
    method: 'POST',
    path: '/api/v1/time-out/',
    access: 'user',
    tag: 'play',
    body: TimeOutBody,
    reply: PlayLimits,
    refuses: ['time_out_not_shorter'],
    summary:
      'A short break from play for 24 hours, 7 days or 30 days (confirm: true): no purchase, payment or activation until then; ' +
      'prizes can still be claimed. It cannot be shortened or lifted early; a second call may only extend it (409 otherwise).',
  }),
  userPlayLimits: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/:id/play-limits/',
    access: 'staff',
    tag: 'play',
    params: IdParams,
    reply: StaffPlayLimits,
    refuses: ['user_not_found'],
    summary: "A player's spend limits, what he spent, his self-exclusion and the history of his requests, for staff (read only).",
  }),
  realityCheck: endpoint({
    method: 'GET',
    path: '/api/v1/reality-check/',
    access: 'user',
    tag: 'play',
    reply: RealityCheck,
    refuses: [],
    summary:
      "The reality check of the caller's session (his login): how often he is reminded, whether a reminder is due and when " +
      'the next is, when the session started, how long it has lasted, and what he spent in it on how many tickets.',
  }),
  topBar: endpoint({
    method: 'GET',
    path: '/api/v1/top-bar/',
    access: 'user',
    tag: 'play',
    reply: TopBar,
    refuses: [],
    summary:
      "What the top bar of every page the caller opens shows, in one read: his session's reality check (as " +
      '`GET /api/v1/reality-check/` answers it) and how many of his messages are unread (as `GET /api/v1/notifications/unread/`).',
  }),
  acknowledgeRealityCheck: endpoint({
    method: 'POST',
    path: '/api/v1/reality-check/',
    access: 'user',
    tag: 'play',
    reply: RealityCheck,
    refuses: [],
    summary:
      '"Continue playing": acknowledges the reminder due in this session, the next one is due an interval later; nothing ' +
      'changes when none is due. While one is due every purchase path answers 409 `reality_check`.',
  }),
  setRealityCheck: endpoint({
    method: 'PUT',
    path: '/api/v1/reality-check/',
    access: 'user',
    tag: 'play',
    body: RealityIntervalBody,
    reply: RealityCheck,
    refuses: [],
    summary: 'Sets how often the caller is reminded: `interval_minutes` 0 (off), 15, 30, 60 or 120; at once, in every session.',
  }),
} as const;
