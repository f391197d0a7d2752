/** The lotteries endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import type { RefusalName } from '../api/refusals.ts';
import {
  DrawResult,
  IdParams,
  Lottery,
  LotteryBody,
  LotteryPatch,
  NUMBERS_FIELDS,
  Paging,
  StaffLotteriesQuery,
  StaffLottery,
  TICKETS_FIELDS,
} from './schemas.ts';

/** A change of the lottery's kind refuses a field of the other kind, or asks for one of its own (server/lotteries/admin-service.ts kindErrors). */
const KIND_FIELD_REFUSALS = [
  ...TICKETS_FIELDS.map((f) => `${f}_tickets_kind_only` as const),
  ...[...NUMBERS_FIELDS, 'rollover_to' as const].map((f) => `${f}_numbers_kind_only` as const),
  ...[...NUMBERS_FIELDS, ...TICKETS_FIELDS].map((f) => `${f}_kind_needs` as const),
] satisfies RefusalName[];

export const lotteriesEndpoints = {
  // Lotteries ---------------------------------------------------------------------------------------
  publishedLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/published-lotteries/',
    access: 'public',
    tag: 'lotteries',
    query: Paging,
    reply: z.array(Lottery),
    paged: true,
    refuses: [],
    summary: 'Published lotteries, purchasable first, paged (total in X-Total-Count).',
  }),
  featuredLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/featured-lotteries/',
    access: 'public',
    tag: 'lotteries',
    reply: z.array(Lottery),
    refuses: [],
    summary: 'Featured lotteries that are on sale now (at most 10).',
  }),
  lotteryResults: endpoint({
    method: 'GET',
    path: '/api/v1/lottery-results/',
    access: 'public',
    tag: 'lotteries',
    reply: z.array(DrawResult),
    refuses: [],
    summary:
      "The latest published draws with their winning tickets (at most 10); a numbers draw's numbers, each prize's tier and " +
      "the jackpot's rollover.",
  }),
  getLottery: endpoint({
    method: 'GET',
    path: '/api/v1/get-lottery/:id/',
    access: 'public',
    tag: 'lotteries',
    params: IdParams,
    reply: Lottery,
    refuses: ['lottery_not_found'],
    summary: 'One lottery; an unpublished one exists only for staff.',
  }),
  // Lotteries, for staff ----------------------------------------------------------------------------
  staffLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/',
    access: 'staff',
    tag: 'lotteries',
    query: StaffLotteriesQuery,
    reply: z.array(StaffLottery),
    paged: true,
    refuses: [],
    summary:
      'Every lottery, newest first: search by name or description (English or Bengali), filter all, active, inactive, featured, ' +
      'result_published, result_not_published; paged.',
  }),
  createLottery: endpoint({
    method: 'POST',
    path: '/api/v1/lotteries/',
    access: 'staff',
    tag: 'lotteries',
    body: LotteryBody,
    reply: StaffLottery,
    status: 201,
    refuses: ['rollover_target_invalid', 'beacon_round_passed'],
    summary:
      'Creates a lottery (names and descriptions in English and Bengali; a date alone is Dhaka midnight for the start, 8 PM for the end); ' +
      'kind tickets (winners, total prize) or numbers (jackpot share, tier 2–5 prizes, rollover target); audited.',
  }),
  staffLottery: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/',
    access: 'staff',
    tag: 'lotteries',
    params: IdParams,
    reply: StaffLottery,
    refuses: ['lottery_not_found'],
    summary: 'One lottery, published or not, with what sold and its prizes count.',
  }),
  updateLottery: endpoint({
    method: 'PATCH',
    path: '/api/v1/lotteries/:id/',
    access: 'staff',
    tag: 'lotteries',
    params: IdParams,
    body: LotteryPatch,
    reply: StaffLottery,
    // The end of sales can no longer move once the draw's beacon round has come (server/draws/commitments.ts announceDraw).
    refuses: [
      'beacon_round_passed',
      'lottery_not_found',
      'unpublish_reason_only_then',
      'unpublish_superuser_only',
      'unpublish_reason_required',
      ...KIND_FIELD_REFUSALS,
      'rollover_target_invalid',
      'lottery_end_before_start',
      'lottery_winners_over_tickets',
      'total_tickets_below_held',
      'lottery_kind_rollover',
      'lottery_prizes_fixed',
      'numbers_results_need_draw',
      'lottery_drawn_prize_fixed',
      'lottery_of_game',
    ],
    summary:
      'Changes any of the fields, the flags published, featured and is_result_published among them; a drawn lottery keeps its ' +
      "total prize and winners, and taking its results back never reopens its sales; the kind and a numbers lottery's prizes " +
      'change only while no ticket is held, its rollover target until the draw; audited.',
  }),
} as const;
