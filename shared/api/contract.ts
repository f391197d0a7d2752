/**
 * Every endpoint of the API, declared once (docs/rules/api.md). Adding one here and registering its handler on
 * the server is what makes it exist; the OpenAPI document at /api/openapi.json is made from this list.
 */
import { z } from 'zod';
import {
  CodeSent,
  Detail,
  IdentifierBody,
  SessionUser,
  LoginBody,
  RefreshBody,
  ResetBody,
  SignupBody,
  SignupReply,
  TokenPair,
  UpdateProfileBody,
  UpdateProfileReply,
  UserProfile,
  VerifyOtpBody,
  VerifyOtpReply,
} from '../accounts/schemas.ts';
import { AuditEntry, AuditQuery } from '../audit/schemas.ts';
import { ApprovalProposal, ApprovalProposalParams, ApprovalProposalsQuery, ApprovalReasonBody } from '../purchases/approvals.ts';
import { WithholdingProposal, WithholdingReasonBody } from '../draws/withholding.ts';
import { StaffHeldTicket } from '../purchases/staff-tickets.ts';
import { ClaimBody, ClaimCodeBody, ClaimsSummary, StaffClaim, StaffClaimsQuery, WinningTicket } from '../claims/schemas.ts';
import { ContactBody } from '../contact/schemas.ts';
import { Identity, IdentityBody } from '../identity/schemas.ts';
import { CreateUserBody, StaffUser, StaffUsersQuery, UpdateUserBody } from '../users/schemas.ts';
import { Dashboard } from '../dashboard/schemas.ts';
import {
  DrawBody,
  DrawProposal,
  ProposalIdParams,
  DrawReply,
  LotteryIdParams,
  NotifyBody,
  NotifyReply,
  Participant,
  ParticipantsQuery,
  Prize,
  PrizeIdParams,
  RandomWinnerBody,
} from '../draws/schemas.ts';
import {
  ActivateBody,
  ActivateReply,
  GenerateBody,
  GeneratedExportQuery,
  GeneratedTicket,
  GeneratedTicketsQuery,
} from '../generated-tickets/schemas.ts';
import {
  DrawResult,
  IdParams,
  Lottery,
  LotteryBody,
  LotteryPatch,
  Paging,
  StaffLotteriesQuery,
  StaffLottery,
} from '../lotteries/schemas.ts';
import {
  MyTransactionsQuery,
  PlayerTransaction,
  PurchaseBody,
  PurchaseReply,
  StaffTransaction,
  StaffTransactionsQuery,
  StatusBody,
  TrxIdBody,
} from '../purchases/schemas.ts';
import { CallbackBody, CallbackReply, CheckoutReply } from '../payments/schemas.ts';
import { BeaconBody, DrawProofReply } from '../draws/proof.ts';
import {
  FlaggedPurchase,
  FlaggedQuery,
  DiscardBody,
  ResolveBody,
  Statement,
  StatementDetail,
  StatementRowOut,
  StatementRowsQuery,
  StatementUploadQuery,
  StatementUploadReply,
  STATEMENT_TYPES,
} from '../payments/statements.ts';
import { PICTURE_TYPES, UploadParams, UploadReply } from '../uploads/schemas.ts';
import {
  LimitsBody,
  PlayLimits,
  RealityCheck,
  RealityIntervalBody,
  SelfExclusionBody,
  StaffPlayLimits,
  TimeOutBody,
} from '../play/schemas.ts';
import { ArchivedResult, CheckNumbersQuery, CheckNumbersReply, ResultsQuery } from '../results/schemas.ts';
import {
  MessageSettings,
  MessageSettingsBody,
  NotificationsQuery,
  NotificationsReply,
  ReadNotificationsBody,
  ReadNotificationsReply,
} from '../messages/schemas.ts';
import { PushSettings, PushSettingsBody, PushSubscriptionBody, PushUnsubscribeBody } from '../push/schemas.ts';
import { endpoint } from './endpoint.ts';

export const api = {
  // Sessions ----------------------------------------------------------------------------------------
  login: endpoint({
    method: 'POST',
    path: '/api/token/',
    access: 'public',
    tag: 'sessions',
    body: LoginBody,
    reply: TokenPair,
    refuses: {
      401: 'Wrong identifier or password (`no_active_account`), or an account not active or disabled.',
      428:
        'Many failures from this address and a device the account does not know: answer `challenge.question` with ' +
        '`challenge_token` and `challenge_answer` (`challenge_required`, `challenge_wrong`, `challenge_expired`).',
    },
    summary: 'Log in with phone number or e-mail and password; returns an access and a refresh token.',
  }),
  refresh: endpoint({
    method: 'POST',
    path: '/api/token/refresh/',
    access: 'public',
    tag: 'sessions',
    body: RefreshBody,
    reply: TokenPair,
    refuses: { 401: 'The refresh token is not valid, or its session has ended (`token_not_valid`).' },
    summary: 'A new access token for a valid refresh token.',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/token/blacklist/',
    access: 'public',
    tag: 'sessions',
    body: RefreshBody,
    reply: null,
    status: 204,
    summary: 'Revokes a refresh token (log out): its session ends, the access tokens issued for it too.',
  }),
  logoutEverywhere: endpoint({
    method: 'POST',
    path: '/api/v1/logout-everywhere/',
    access: 'user',
    tag: 'sessions',
    reply: null,
    status: 204,
    summary: "Ends every session of the caller's account at once, this one too: refresh and access tokens alike.",
  }),
  // Accounts ----------------------------------------------------------------------------------------
  signup: endpoint({
    method: 'POST',
    path: '/api/v1/signup/',
    access: 'public',
    tag: 'accounts',
    body: SignupBody,
    reply: SignupReply,
    status: 201,
    summary: 'Registers a player and sends the verification code (SMS when a phone is given, else e-mail).',
  }),
  verifyAccount: endpoint({
    method: 'POST',
    path: '/api/v1/verify-otp/',
    access: 'public',
    tag: 'accounts',
    body: VerifyOtpBody,
    reply: VerifyOtpReply,
    refuses: { 428: 'Many failed code checks from this address: answer `challenge.question` as at login (`challenge_required`, …).' },
    summary: 'Activates a new account with its 6-digit code and signs in: an access and a refresh token, as a login.',
  }),
  resendAccountCode: endpoint({
    method: 'POST',
    path: '/api/v1/resend-otp/',
    access: 'public',
    tag: 'accounts',
    body: IdentifierBody,
    reply: CodeSent,
    summary: 'Sends a new verification code (after the 120 s wait).',
  }),
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/v1/forgot-password/',
    access: 'public',
    tag: 'accounts',
    body: IdentifierBody,
    reply: CodeSent,
    summary: 'Sends a 6-digit password reset code; answers alike whether or not the account exists.',
  }),
  resendResetCode: endpoint({
    method: 'POST',
    path: '/api/v1/resend-password-reset-otp/',
    access: 'public',
    tag: 'accounts',
    body: IdentifierBody,
    reply: CodeSent,
    summary: 'Sends a new password reset code (after the 60 s wait).',
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/v1/reset-password/',
    access: 'public',
    tag: 'accounts',
    body: ResetBody,
    reply: Detail,
    refuses: { 428: 'Many failed code checks from this address: answer `challenge.question` as at login (`challenge_required`, …).' },
    summary: 'Sets a new password with the reset code; ends every session of the account.',
  }),
  me: endpoint({
    method: 'GET',
    path: '/api/v1/me/',
    access: 'user',
    tag: 'accounts',
    reply: SessionUser,
    summary: 'The caller as the database has him now (name, phone, staff right).',
  }),
  getUser: endpoint({
    method: 'GET',
    path: '/api/v1/users/:id/',
    access: 'user',
    tag: 'accounts',
    params: IdParams,
    reply: UserProfile,
    refuses: { 403: "Another user's profile, asked by a player (whether it exists or not)." },
    summary: 'A user profile: a player reads his own, staff any.',
  }),
  updateProfile: endpoint({
    method: 'PATCH',
    path: '/api/v1/update-profile/',
    access: 'user',
    tag: 'accounts',
    body: UpdateProfileBody,
    reply: UpdateProfileReply,
    summary:
      "Changes the caller's name, e-mail, phone or picture; the current password is required (wrong tries are limited). " +
      'A changed e-mail or phone is no longer confirmed.',
  }),
  // Identity details for payment ------------------------------------------------------------------
  myIdentity: endpoint({
    method: 'GET',
    path: '/api/v1/my-identity/',
    access: 'user',
    tag: 'identity',
    reply: Identity,
    refuses: { 404: 'No identity details given yet.' },
    summary: "The caller's identity details (NID number, NID photos, phone); 404 until given.",
  }),
  saveIdentity: endpoint({
    method: 'PUT',
    path: '/api/v1/my-identity/',
    access: 'user',
    tag: 'identity',
    body: IdentityBody,
    reply: Identity,
    summary: "Gives or replaces the caller's identity details; the photos are the caller's own uploads of upload-nid.",
  }),
  userIdentity: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/:id/identity/',
    access: 'staff',
    tag: 'identity',
    params: IdParams,
    reply: Identity,
    summary: "A player's identity details, for staff; 404 when he has given none.",
  }),
  // Keeping play safe (docs/rules/play-safe.md) --------------------------------------------------------
  myLimits: endpoint({
    method: 'GET',
    path: '/api/v1/my-limits/',
    access: 'user',
    tag: 'play',
    reply: PlayLimits,
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
    summary: "A player's spend limits, what he spent, his self-exclusion and the history of his requests, for staff (read only).",
  }),
  realityCheck: endpoint({
    method: 'GET',
    path: '/api/v1/reality-check/',
    access: 'user',
    tag: 'play',
    reply: RealityCheck,
    summary:
      "The reality check of the caller's session (his login): how often he is reminded, whether a reminder is due and when " +
      'the next is, when the session started, how long it has lasted, and what he spent in it on how many tickets.',
  }),
  acknowledgeRealityCheck: endpoint({
    method: 'POST',
    path: '/api/v1/reality-check/',
    access: 'user',
    tag: 'play',
    reply: RealityCheck,
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
    summary: 'Sets how often the caller is reminded: `interval_minutes` 0 (off), 15, 30, 60 or 120; at once, in every session.',
  }),
  // Users, for staff (docs/rules/accounts-and-codes.md#12-staff-and-superusers) -------------------------
  staffUsers: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/',
    access: 'staff',
    tag: 'users',
    query: StaffUsersQuery,
    reply: z.array(StaffUser),
    paged: true,
    summary: 'Every user, newest first, searched by name, e-mail or phone, filtered (active, inactive, staff, superuser), paged.',
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/v1/admin-users/',
    access: 'staff',
    tag: 'users',
    body: CreateUserBody,
    reply: StaffUser,
    status: 201,
    summary: 'Creates an account (audited); only a superuser may create staff or superusers.',
  }),
  staffUser: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/:id/',
    access: 'staff',
    tag: 'users',
    params: IdParams,
    reply: StaffUser,
    summary: 'One user as staff see him.',
  }),
  updateUser: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin-users/:id/',
    access: 'staff',
    tag: 'users',
    params: IdParams,
    body: UpdateUserBody,
    reply: StaffUser,
    summary: "Changes a user's name, e-mail, phone, password or active flag (audited); staff and superuser flags are set at creation only.",
  }),
  // Messages to players (docs/rules/messages.md) -----------------------------------------------------------------
  notifications: endpoint({
    method: 'GET',
    path: '/api/v1/notifications/',
    access: 'user',
    tag: 'messages',
    query: NotificationsQuery,
    reply: NotificationsReply,
    summary:
      "The caller's messages, newest first, each with its title, text and link in the caller's language; how many there are " +
      'and how many are unread; at most 50 a page.',
  }),
  unreadNotifications: endpoint({
    method: 'GET',
    path: '/api/v1/notifications/unread/',
    access: 'user',
    tag: 'messages',
    reply: ReadNotificationsReply,
    summary: "How many of the caller's messages are unread: the count the top bar's bell shows on every page he opens.",
  }),
  readNotifications: endpoint({
    method: 'POST',
    path: '/api/v1/notifications/read/',
    access: 'user',
    tag: 'messages',
    body: ReadNotificationsBody,
    reply: ReadNotificationsReply,
    summary: "Marks the caller's messages read, up to the id `up_to` (every one without it); answers how many stay unread.",
  }),
  messageSettings: endpoint({
    method: 'GET',
    path: '/api/v1/message-settings/',
    access: 'user',
    tag: 'messages',
    reply: MessageSettings,
    summary:
      "The language of the caller's messages, and the kinds he may switch off: claim reminders (on unless switched off) and " +
      'news of a new lottery of a kind he played (off unless switched on).',
  }),
  setMessageSettings: endpoint({
    method: 'PUT',
    path: '/api/v1/message-settings/',
    access: 'user',
    tag: 'messages',
    body: MessageSettingsBody,
    reply: MessageSettings,
    summary: "Sets the language of the caller's messages and which of the kinds he may switch off he gets.",
  }),
  // Push notifications to the installed app (docs/rules/messages.md#6-push-notifications) ----------------------------
  pushSettings: endpoint({
    method: 'GET',
    path: '/api/v1/push-settings/',
    access: 'user',
    tag: 'messages',
    reply: PushSettings,
    summary:
      "Push to the caller's devices: the VAPID public key a browser subscribes with (null: this server sends no push), " +
      'the kinds he wants pushed (results, confirmations) and how many devices he has subscribed.',
  }),
  setPushSettings: endpoint({
    method: 'PUT',
    path: '/api/v1/push-settings/',
    access: 'user',
    tag: 'messages',
    body: PushSettingsBody,
    reply: PushSettings,
    summary: 'Sets which kinds of message are pushed to his devices: results (a prize won) and confirmations (a purchase answered).',
  }),
  subscribePush: endpoint({
    method: 'POST',
    path: '/api/v1/push-subscriptions/',
    access: 'user',
    tag: 'messages',
    body: PushSubscriptionBody,
    reply: PushSettings,
    status: 201,
    refuses: { 409: 'this server sends no push (no VAPID keys configured)' },
    summary:
      "Subscribes a device of the caller to his pushes, with the browser's subscription (endpoint and keys); the same " +
      'endpoint again updates it (and moves it to the caller if it was another account on the same browser).',
  }),
  unsubscribePush: endpoint({
    method: 'POST',
    path: '/api/v1/push-subscriptions/remove/',
    access: 'user',
    tag: 'messages',
    body: PushUnsubscribeBody,
    reply: PushSettings,
    refuses: { 404: 'no subscription of the caller has this endpoint' },
    summary: "Forgets one of the caller's devices: nothing more is pushed to it.",
  }),
  // Lotteries ---------------------------------------------------------------------------------------
  publishedLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/published-lotteries/',
    access: 'public',
    tag: 'lotteries',
    query: Paging,
    reply: z.array(Lottery),
    paged: true,
    summary: 'Published lotteries, purchasable first, paged (total in X-Total-Count).',
  }),
  featuredLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/featured-lotteries/',
    access: 'public',
    tag: 'lotteries',
    reply: z.array(Lottery),
    summary: 'Featured lotteries that are on sale now (at most 10).',
  }),
  lotteryResults: endpoint({
    method: 'GET',
    path: '/api/v1/lottery-results/',
    access: 'public',
    tag: 'lotteries',
    reply: z.array(DrawResult),
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
    summary: 'One lottery; an unpublished one exists only for staff.',
  }),
  // The results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players) ------------
  resultsArchive: endpoint({
    method: 'GET',
    path: '/api/v1/results/',
    access: 'public',
    tag: 'results',
    query: ResultsQuery,
    reply: z.array(ArchivedResult),
    paged: true,
    summary:
      'Every drawn lottery whose results are published, newest draw first, searched by part of either name (`search`) and by ' +
      "the Dhaka day it was drawn (`date`, YYYY-MM-DD); each with its winning tickets, or a numbers draw's numbers and prizes " +
      'per tier, and whether its draw can be checked; paged, at most 20 a page (total in X-Total-Count).',
  }),
  checkNumbers: endpoint({
    method: 'GET',
    path: '/api/v1/check-numbers/',
    access: 'public',
    tag: 'results',
    query: CheckNumbersQuery,
    reply: CheckNumbersReply,
    summary:
      'Every past draw a ticket (`ticket`) won, or would have won had it been sold: the winning-tickets draws whose winners ' +
      'include it, and the latest 500 numbers draws in which it reaches a tier; with the tier, the prize and whether it was sold.',
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
    summary:
      'Changes any of the fields, the flags published, featured and is_result_published among them; a drawn lottery keeps its ' +
      "total prize and winners, and taking its results back never reopens its sales; the kind and a numbers lottery's prizes " +
      'change only while no ticket is held, its rollover target until the draw; audited.',
  }),
  dashboard: endpoint({
    method: 'GET',
    path: '/api/v1/admin/dashboard/',
    access: 'staff',
    tag: 'lotteries',
    reply: Dashboard,
    summary:
      'The back office dashboard: users, active lotteries, revenue and tickets sold (approved), what waits for staff, recent lotteries and transactions.',
  }),
  auditLog: endpoint({
    method: 'GET',
    path: '/api/v1/admin/audit-log/',
    access: 'staff',
    tag: 'audit',
    query: AuditQuery,
    reply: z.array(AuditEntry),
    paged: true,
    summary: 'Every recorded staff change, newest first (who, what, before and after, when); superusers only (other staff 403); read only.',
  }),
  drawProof: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/draw-proof/',
    access: 'public',
    tag: 'lotteries',
    params: IdParams,
    reply: DrawProofReply,
    summary:
      "The proof of a published lottery's draw (docs/rules/draws.md): before the draw the commitment to its secret seed and " +
      'the drand round that will give the beacon; a draw made without the procedure says it cannot be checked.',
  }),
  setDrawBeacon: endpoint({
    method: 'PUT',
    path: '/api/v1/lotteries/:id/draw-beacon/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    body: BeaconBody,
    reply: DrawProofReply,
    summary:
      "The beacon value of the lottery's announced drand round, as any drand relay shows it, or the round's signature, " +
      "verified against drand quicknet's public key: only after the round's time, once; recorded with who entered it " +
      '(docs/rules/draws.md#4-the-beacon). Answers the proof as it now is.',
  }),
  verifiableDraw: endpoint({
    method: 'POST',
    path: '/api/v1/lotteries/:id/verifiable-draw/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: DrawReply,
    status: 201,
    summary:
      "Draws the lottery's winners by the procedure bhagya-draw-v1 once sales are closed and the beacon value is known: " +
      'prizes as every draw makes them, results published, the seed revealed in the proof; once per lottery; audited. A numbers ' +
      'lottery draws its numbers instead: each ticket paid its best tier, a jackpot nobody won rolled into its rollover target.',
  }),
  // Purchases ---------------------------------------------------------------------------------------
  createTransaction: endpoint({
    method: 'POST',
    path: '/api/v1/transactions-create/',
    access: 'user',
    tag: 'purchases',
    body: PurchaseBody,
    reply: PurchaseReply,
    status: 201,
    idempotent: true,
    refuses: {
      403: 'The player has excluded himself (`self_excluded`, with `until`).',
      409: 'A rule of the sale or of play-safe refuses it (sold out, the ticket taken, a spend limit, the reality check): its `code` says which.',
    },
    summary:
      "Buys a ticket: a pending bKash transaction of the caller for the lottery's own price, with the bKash receiver number. " +
      'Send an Idempotency-Key header (1–100 printable characters): a retry with the same key answers 200 with the first transaction.',
  }),
  setTrxId: endpoint({
    method: 'PATCH',
    path: '/api/v1/transactions/:id/trx-id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    body: TrxIdBody,
    reply: PlayerTransaction,
    summary: "The bKash TrxID (and the bKash number paid from) of the caller's own pending purchase; given once.",
  }),
  startCheckout: endpoint({
    method: 'POST',
    path: '/api/v1/transactions/:id/bkash-checkout/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    reply: CheckoutReply,
    status: 201,
    refuses: {
      403: 'The player has excluded himself (`self_excluded`, with `until`).',
      409: 'A rule of the sale or of play-safe refuses it (sold out, the ticket taken, a spend limit, the reality check): its `code` says which.',
    },
    summary:
      "Starts paying the caller's own pending purchase with bKash's checkout: bKash makes a payment for its amount, and the " +
      'player is sent to `bkash_url`; bKash then sends him back to the callback, which confirms the ticket without staff.',
  }),
  bkashCallback: endpoint({
    method: 'POST',
    path: '/api/v1/payments/bkash/callback/',
    access: 'public',
    tag: 'purchases',
    body: CallbackBody,
    reply: CallbackReply,
    summary:
      "bKash's callback as the player's browser brings it back (`paymentID`, `status`): a confirmed payment is executed and " +
      "the purchase confirmed; a cancelled or failed one ends only when bKash's status says it ended. Settled once. Only " +
      "the purchase's owner (logged in) is told the purchase and its outcome; anyone else gets them null.",
  }),
  // The bKash statement (docs/rules/payments.md#8-send-money-reconciled-with-the-statement) -----------------------
  uploadStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/',
    access: 'staff',
    tag: 'payments',
    query: StatementUploadQuery,
    raw: STATEMENT_TYPES,
    reply: StatementUploadReply,
    status: 201,
    summary:
      'Reads a bKash merchant statement sent as the raw body (CSV, at most 2 MiB; `name`: its file name) and lists each ' +
      'pending Send Money purchase a row matches in TrxID, amount and sender as to approve; the rest are listed for review or ' +
      'left alone. It approves nothing: it waits for a second staff member to confirm it (`status: awaiting_confirmation`). ' +
      'The same file again answers its earlier upload (200, `repeated`) and changes nothing. A file that cannot be read: 400, nothing stored.',
  }),
  statements: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-statements/',
    access: 'staff',
    tag: 'payments',
    query: FlaggedQuery,
    reply: z.array(Statement),
    paged: true,
    summary: 'The uploaded statements, newest first, with their counts.',
  }),
  statement: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-statements/:id/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    query: StatementRowsQuery,
    reply: StatementDetail,
    summary: 'One upload and a page of its rows in line order, filtered by decision (`review_open`: review rows not resolved yet).',
  }),
  confirmStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/:id/confirm/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    reply: Statement,
    refuses: {
      403: 'The caller uploaded it (`own_upload`): another staff member confirms it.',
      409: 'It is no longer awaiting confirmation (`not_awaiting`): confirmed or discarded already.',
    },
    summary:
      'A second staff member confirms an upload awaiting confirmation: each of its `approve` rows approves its purchase if ' +
      "it still may (pending with that TrxID, not the uploader's or the confirmer's own, on sale); the others become review " +
      'rows with the reason. Once per upload; audited with both people.',
  }),
  discardStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/:id/discard/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    body: DiscardBody,
    reply: Statement,
    refuses: { 409: 'It is no longer awaiting confirmation (`not_awaiting`).' },
    summary: 'Sets aside an upload awaiting confirmation, with a reason: it approves nothing and its rows take no part. Audited.',
  }),
  resolveStatementRow: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statement-rows/:id/resolve/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    body: ResolveBody,
    reply: StatementRowOut,
    summary:
      "A person's decision on a row listed for review, with a note: the first `approve` proposes approving the pending purchase " +
      "carrying the row's TrxID, a second staff member's `approve` approves it (the proposer's own: 403 `own_proposal`); both " +
      'are refused once its lottery is closed for changes (409 `tickets_frozen` from the end of sales); ' +
      "`dismiss` leaves everything as it is. Once per row; never a row of the caller's own purchase (403); audited.",
  }),
  flaggedPurchases: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-flagged-purchases/',
    access: 'staff',
    tag: 'payments',
    query: FlaggedQuery,
    reply: z.array(FlaggedPurchase),
    paged: true,
    summary: 'Pending Send Money purchases whose TrxID is in no uploaded statement 48 hours after it was given, oldest first.',
  }),
  myTransactions: endpoint({
    method: 'GET',
    path: '/api/v1/my-transactions/',
    access: 'user',
    tag: 'purchases',
    query: MyTransactionsQuery,
    reply: z.array(PlayerTransaction),
    paged: true,
    summary:
      "The caller's own transactions, newest first, with their lottery and prize (after a numbers draw its numbers, what the " +
      'ticket matched and its tier), paged (total in X-Total-Count); `only=tickets` the confirmed ones and those awaiting ' +
      'confirmation, `only=unfinished` those awaiting payment.',
  }),
  myTransaction: endpoint({
    method: 'GET',
    path: '/api/v1/my-transactions/:id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    reply: PurchaseReply,
    summary: "One of the caller's own transactions, with where and how much to pay (another player's is 404).",
  }),
  transactions: endpoint({
    method: 'GET',
    path: '/api/v1/transactions/',
    access: 'staff',
    tag: 'purchases',
    query: StaffTransactionsQuery,
    reply: z.array(StaffTransaction),
    paged: true,
    summary:
      'Every transaction, newest first: search by player name, phone, e-mail, ticket, TrxID or lottery name, filter by status; paged.',
  }),
  updateTransaction: endpoint({
    method: 'PUT',
    path: '/api/v1/transactions/:id/',
    access: 'staff',
    tag: 'purchases',
    params: IdParams,
    body: StatusBody,
    reply: StaffTransaction,
    summary:
      'Rejects or moves back a transaction (success → pending, pending ↔ failed); an id in the body must be the one of the ' +
      "path; audited. Approving (pending → success) is two people's act: it answers 409 `second_person_needed` with the " +
      '`proposal_id` of the open proposal (null when there is none) and changes nothing.',
    refuses: {
      409: 'The change is not allowed now; `second_person_needed` for an approval (propose it instead).',
    },
  }),
  proposeApproval: endpoint({
    method: 'POST',
    path: '/api/v1/transactions/:id/approval-proposals/',
    access: 'staff',
    tag: 'purchases',
    params: IdParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    status: 201,
    refuses: {
      403: "The purchase is the caller's own (`own_purchase`).",
      409:
        'Not a pending payment with a TrxID (`not_pending`, `trx_id_missing`), its lottery closed for changes (`tickets_frozen` from the end ' +
        'of sales, `results_published`, `sales_closed`), or a proposal already open (`proposal_pending`, with `proposal_id`).',
    },
    summary:
      'Proposes approving a pending purchase by hand, with the reason (the receipt the player showed): nothing changes until a ' +
      'second staff member approves the proposal; one open proposal per purchase; audited.',
  }),
  approvalProposals: endpoint({
    method: 'GET',
    path: '/api/v1/transaction-approval-proposals/',
    access: 'staff',
    tag: 'purchases',
    query: ApprovalProposalsQuery,
    reply: z.array(ApprovalProposal),
    paged: true,
    summary:
      'Proposals to approve a purchase by hand, newest first, open ones (`pending`) unless `status` says, of one purchase with ' +
      '`transaction_id`; `lapsed` marks an open one that can no longer be approved.',
  }),
  approveApprovalProposal: endpoint({
    method: 'POST',
    path: '/api/v1/transaction-approval-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'purchases',
    params: ApprovalProposalParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    refuses: {
      403: 'The caller proposed it (`same_person`) or owns the purchase (`own_purchase`).',
      409:
        'Decided already (`proposal_decided`), the purchase changed (`proposal_stale`), or it can no longer be confirmed: the proposal lapses ' +
        'and the answer carries its `proposal_id` (`tickets_frozen` from the end of sales, `results_published`, `sales_closed`).',
    },
    summary:
      "A second staff member approves the proposal with the reason: the purchase becomes `success` under the lottery's lock " +
      'if it is still pending with the TrxID proposed and its lottery still on sale; audited with both staff members.',
  }),
  rejectApprovalProposal: endpoint({
    method: 'POST',
    path: '/api/v1/transaction-approval-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'purchases',
    params: ApprovalProposalParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    refuses: {
      403: "The purchase is the caller's own (`own_purchase`).",
      409: 'Decided already (`proposal_decided`).',
    },
    summary: 'Rejects a proposal with the reason (its author may withdraw it the same way): the purchase stays pending; audited.',
  }),
  staffHeldTickets: endpoint({
    method: 'GET',
    path: '/api/v1/staff-held-tickets/',
    access: 'staff',
    tag: 'purchases',
    query: Paging,
    reply: z.array(StaffHeldTicket),
    paged: true,
    refuses: { 403: 'The caller is not a superuser.' },
    summary:
      'Superusers: the transactions of staff accounts (staff do not play; these were bought before), newest first, with their lottery and status.',
  }),
  // The draw and prizes ----------------------------------------------------------------------------
  drawLottery: endpoint({
    method: 'POST',
    path: '/api/v1/draw-lottery/',
    access: 'staff',
    tag: 'draws',
    body: DrawBody,
    reply: DrawProposal,
    status: 202,
    summary:
      'Proposes winning tickets chosen by staff (each a success transaction of that lottery, no duplicates, at most the ' +
      "lottery's winners) with the reason, as an unverifiable draw: nothing is paid until a second staff member approves " +
      'it; one pending proposal per lottery; only after the end of sales, from the frozen tickets (409 `sales_open`), ' +
      'never a ticket the proposer holds (403 `own_ticket`); audited.',
  }),
  drawProposals: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/draw-proposals/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: z.array(DrawProposal),
    summary: "A lottery's proposed unverifiable draws, newest first.",
  }),
  approveDrawProposal: endpoint({
    method: 'POST',
    path: '/api/v1/draw-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    reply: DrawReply,
    status: 201,
    summary:
      'Approves a pending proposal as a second staff member (never the one who proposed it) and finishes the draw with its ' +
      'tickets, checked again (after the end of sales, none held by either staff member): one prize per ticket, the ' +
      "lottery's total prize split equally in whole taka, results published; audited with both staff members.",
  }),
  rejectDrawProposal: endpoint({
    method: 'POST',
    path: '/api/v1/draw-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    reply: DrawProposal,
    summary: 'Rejects a pending proposal (its author may withdraw it the same way); nothing is paid; audited.',
  }),
  lotteryPrizes: endpoint({
    method: 'GET',
    path: '/api/v1/get-prizes/:lotteryId/',
    access: 'staff',
    tag: 'draws',
    params: LotteryIdParams,
    reply: z.array(Prize),
    summary: "A lottery's prizes, in the order the draw chose them.",
  }),
  participants: endpoint({
    method: 'GET',
    path: '/api/v1/get-participators/:lotteryId/',
    access: 'staff',
    tag: 'draws',
    params: LotteryIdParams,
    query: ParticipantsQuery,
    reply: z.array(Participant),
    paged: true,
    summary: "A lottery's participants (its success transactions) in the order bought, searched by name, phone or ticket; paged.",
  }),
  randomWinner: endpoint({
    method: 'POST',
    path: '/api/v1/draw-lottery/random-winner/',
    access: 'staff',
    tag: 'draws',
    body: RandomWinnerBody,
    reply: Participant,
    summary:
      "One of the lottery's success tickets chosen by the server with a cryptographic random number, none of those excluded; " +
      '409 when none is left or the lottery was drawn.',
  }),
  proposeWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/prizes/:prizeId/withholding-proposals/',
    access: 'staff',
    tag: 'draws',
    params: PrizeIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    status: 201,
    refuses: { 403: 'The caller is not a superuser.' },
    summary:
      'Superusers: proposes withholding a prize (fraud, a court order) with the reason; nothing changes until a second staff ' +
      'member approves. Refused (409) when the prize is withheld already, its winner submitted payout details or was paid, ' +
      'or a proposal is pending; audited.',
  }),
  lotteryWithholdings: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/withholding-proposals/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: z.array(WithholdingProposal),
    summary: "Proposals to withhold a lottery's prizes, newest first, with who proposed and who decided, and why.",
  }),
  approveWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/withholding-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    summary:
      'A second staff member (never the author) approves a pending proposal with a reason: the prize is withheld with the ' +
      "proposal's reason (it stays in the results and the proof, marked withheld) and its winner is told; audited.",
  }),
  rejectWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/withholding-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    summary: 'Rejects a pending proposal with a reason (its author withdraws it the same way); the prize stays; audited.',
  }),
  notifyWinners: endpoint({
    method: 'POST',
    path: '/api/v1/notify-winners/',
    access: 'staff',
    tag: 'draws',
    body: NotifyBody,
    reply: NotifyReply,
    summary:
      'Sends each winner of a published draw his message (SMS, or e-mail without a phone), once per prize even when pressed ' +
      'twice; 409 before the results are published; audited.',
  }),
  // Prizes and claims -------------------------------------------------------------------------------
  myWinningTickets: endpoint({
    method: 'GET',
    path: '/api/v1/my-winning-tickets/',
    access: 'user',
    tag: 'claims',
    query: Paging,
    reply: z.array(WinningTicket),
    paged: true,
    summary: "The caller's winning tickets of published results, newest draw first, with their claim and claim deadline; paged.",
  }),
  myWinningTicket: endpoint({
    method: 'GET',
    path: '/api/v1/my-winning-tickets/:id/',
    access: 'user',
    tag: 'claims',
    params: IdParams,
    reply: WinningTicket,
    summary: "One of the caller's winning tickets by its prize id (another player's prize is 404).",
  }),
  sendClaimCode: endpoint({
    method: 'POST',
    path: '/api/v1/send-prize-claim-otp/',
    access: 'user',
    tag: 'claims',
    body: ClaimCodeBody,
    reply: CodeSent,
    summary: "Sends a 6-digit claim code for the caller's own prize to his phone or e-mail; again only after 30 s.",
  }),
  submitClaim: endpoint({
    method: 'POST',
    path: '/api/v1/submit-prize-claim/',
    access: 'user',
    tag: 'claims',
    body: ClaimBody,
    reply: WinningTicket,
    summary:
      'The payout details of the caller’s own prize with its claim code, within 30 days of the draw; once per prize, ' +
      'again after a failed transfer.',
  }),
  staffClaims: endpoint({
    method: 'GET',
    path: '/api/v1/admin/prize-claims/',
    access: 'staff',
    tag: 'claims',
    query: StaffClaimsQuery,
    reply: z.array(StaffClaim),
    paged: true,
    summary:
      'Every prize claim, the newest change first: search by player name, phone or e-mail, lottery name or ticket; filter by status and method; paged.',
  }),
  claimsSummary: endpoint({
    method: 'GET',
    path: '/api/v1/admin/prize-claims/summary/',
    access: 'staff',
    tag: 'claims',
    reply: ClaimsSummary,
    summary: 'Total claims, the prize money they claim and the transfers waiting, over every claim.',
  }),
  approveTransfer: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/approve-transfer/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
    summary:
      'A second staff member approves the transfer of a prize above PAYOUT_SECOND_APPROVAL_TK (not the winner, not who last ' +
      "changed the winner's account; not while it is held); audited.",
  }),
  completeTransfer: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/prize-claims/:id/toggle-transfer/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
    summary:
      'Marks the transfer of a claim with submitted payout details as completed (final): not within 72 hours of a change of ' +
      "the winner's phone, e-mail or password, not by who made it, above PAYOUT_SECOND_APPROVAL_TK only after another staff " +
      "member's approval; audited.",
  }),
  failTransfer: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/prize-claims/:id/transfer-failed/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
    summary: 'Marks the transfer of a claim with submitted payout details as failed: the player may submit details again; audited.',
  }),
  // Generated tickets and activation ----------------------------------------------------------------
  generateTickets: endpoint({
    method: 'POST',
    path: '/api/v1/generated-tickets/',
    access: 'staff',
    tag: 'generated-tickets',
    body: GenerateBody,
    reply: z.array(GeneratedTicket),
    status: 201,
    summary:
      'Makes 1–100 tickets of a lottery whose sales have not closed: random combinations not held there, each with a random ' +
      '16-digit secret, held out of sale until activated; within the tickets left; audited.',
  }),
  generatedTickets: endpoint({
    method: 'GET',
    path: '/api/v1/generated-tickets/',
    access: 'staff',
    tag: 'generated-tickets',
    query: GeneratedTicketsQuery,
    reply: z.array(GeneratedTicket),
    paged: true,
    summary:
      'Generated tickets, newest first: search by ticket number, secret number or lottery name, filter by lottery and by ' +
      'activation (all, activated, not_activated); paged.',
  }),
  exportGeneratedTickets: endpoint({
    method: 'GET',
    path: '/api/v1/generated-tickets/export/',
    access: 'staff',
    tag: 'generated-tickets',
    query: GeneratedExportQuery,
    reply: null,
    refuses: { 404: 'No such lottery.', 409: 'No generated ticket of the lottery matches.' },
    summary:
      'CSV download (text/csv, UTF-8 with BOM) of the non-activated generated tickets of one lottery that match the search, ' +
      'streamed in id order; 409 when there are none.',
  }),
  deleteGeneratedTicket: endpoint({
    method: 'DELETE',
    path: '/api/v1/generated-tickets/:id/',
    access: 'staff',
    tag: 'generated-tickets',
    params: IdParams,
    reply: null,
    status: 204,
    summary: 'Deletes a generated ticket that was not activated (an activated one is a sale: 409); audited.',
  }),
  activateTicket: endpoint({
    method: 'POST',
    path: '/api/v1/activate-generated-ticket/',
    access: 'user',
    tag: 'generated-tickets',
    body: ActivateBody,
    reply: ActivateReply,
    refuses: {
      403: 'The player has excluded himself (`self_excluded`, with `until`).',
      409: 'A rule of the sale or of play-safe refuses it (sold out, the ticket taken, a spend limit, the reality check): its `code` says which.',
    },
    summary:
      "Activates a generated ticket with its secret number: it becomes the caller's success transaction of type activation. " +
      'A wrong pair is one answer whichever half was wrong; wrong pairs are limited per player, address and ticket number.',
  }),
  // Pictures and contact ----------------------------------------------------------------------------
  uploadImage: endpoint({
    method: 'POST',
    path: '/api/v1/upload-image/',
    access: 'public',
    tag: 'uploads',
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    summary:
      'Stores a picture sent as the raw body (JPEG, PNG or WebP, at most 2 MiB; the type is read from the bytes), re-encoded without metadata, at most 640 px on its longest side; bytes that do not decode: 400.',
  }),
  uploadNid: endpoint({
    method: 'POST',
    path: '/api/v1/upload-nid/',
    access: 'user',
    tag: 'uploads',
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    summary:
      "Stores a photo of the caller's NID card (raw JPEG, PNG or WebP, at most 2 MiB), re-encoded without metadata (no GPS position), at most 2,000 px on its longest side; served only to him and to staff.",
  }),
  getUpload: endpoint({
    method: 'GET',
    path: '/api/v1/uploads/:id/',
    access: 'user',
    tag: 'uploads',
    params: UploadParams,
    reply: null,
    summary: 'A stored picture, for its owner and for staff only; an NID photo with Cache-Control: no-store.',
  }),
  contact: endpoint({
    method: 'POST',
    path: '/api/v1/contact/',
    access: 'public',
    tag: 'contact',
    body: ContactBody,
    reply: Detail,
    status: 201,
    summary: 'Stores a message for support (and forwards it where mail is configured).',
  }),
  openApi: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    tag: 'meta',
    reply: null,
    summary: 'This document: the API described in OpenAPI 3.1.',
  }),
} as const;

export type Api = typeof api;
