/**
 * Every endpoint of the API, declared once (docs/rules/api.md). Adding one here and registering its handler on
 * the server is what makes it exist; the OpenAPI document at /api/openapi.json is made from this list.
 */
import { z } from "zod";
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
} from "../accounts/schemas.ts";
import { ContactBody } from "../contact/schemas.ts";
import { Identity, IdentityBody } from "../identity/schemas.ts";
import { DrawResult, IdParams, Lottery, Paging } from "../lotteries/schemas.ts";
import {
  PlayerTransaction,
  PurchaseBody,
  PurchaseReply,
  StaffTransaction,
  StaffTransactionsQuery,
  StatusBody,
  TrxIdBody,
} from "../purchases/schemas.ts";
import {
  PICTURE_TYPES,
  UploadParams,
  UploadReply,
} from "../uploads/schemas.ts";
import { endpoint } from "./endpoint.ts";

export const api = {
  // Sessions ----------------------------------------------------------------------------------------
  login: endpoint({
    method: "POST",
    path: "/api/token/",
    access: "public",
    tag: "sessions",
    body: LoginBody,
    reply: TokenPair,
    summary:
      "Log in with phone number or e-mail and password; returns an access and a refresh token.",
  }),
  refresh: endpoint({
    method: "POST",
    path: "/api/token/refresh/",
    access: "public",
    tag: "sessions",
    body: RefreshBody,
    reply: TokenPair,
    summary: "A new access token for a valid refresh token.",
  }),
  logout: endpoint({
    method: "POST",
    path: "/api/token/blacklist/",
    access: "public",
    tag: "sessions",
    body: RefreshBody,
    reply: null,
    status: 204,
    summary: "Revokes a refresh token (log out).",
  }),
  // Accounts ----------------------------------------------------------------------------------------
  signup: endpoint({
    method: "POST",
    path: "/api/v1/signup/",
    access: "public",
    tag: "accounts",
    body: SignupBody,
    reply: SignupReply,
    status: 201,
    summary:
      "Registers a player and sends the verification code (SMS when a phone is given, else e-mail).",
  }),
  verifyAccount: endpoint({
    method: "POST",
    path: "/api/v1/verify-otp/",
    access: "public",
    tag: "accounts",
    body: VerifyOtpBody,
    reply: Detail,
    summary: "Activates a new account with its 5-digit code.",
  }),
  resendAccountCode: endpoint({
    method: "POST",
    path: "/api/v1/resend-otp/",
    access: "public",
    tag: "accounts",
    body: IdentifierBody,
    reply: CodeSent,
    summary: "Sends a new verification code (after the 120 s wait).",
  }),
  forgotPassword: endpoint({
    method: "POST",
    path: "/api/v1/forgot-password/",
    access: "public",
    tag: "accounts",
    body: IdentifierBody,
    reply: CodeSent,
    summary:
      "Sends a 6-digit password reset code; answers alike whether or not the account exists.",
  }),
  resendResetCode: endpoint({
    method: "POST",
    path: "/api/v1/resend-password-reset-otp/",
    access: "public",
    tag: "accounts",
    body: IdentifierBody,
    reply: CodeSent,
    summary: "Sends a new password reset code (after the 60 s wait).",
  }),
  resetPassword: endpoint({
    method: "POST",
    path: "/api/v1/reset-password/",
    access: "public",
    tag: "accounts",
    body: ResetBody,
    reply: Detail,
    summary:
      "Sets a new password with the reset code; ends every session of the account.",
  }),
  me: endpoint({
    method: "GET",
    path: "/api/v1/me/",
    access: "user",
    tag: "accounts",
    reply: SessionUser,
    summary:
      "The caller as the database has him now (name, phone, staff right).",
  }),
  getUser: endpoint({
    method: "GET",
    path: "/api/v1/users/:id/",
    access: "user",
    tag: "accounts",
    params: IdParams,
    reply: UserProfile,
    summary: "A user profile: a player reads his own, staff any.",
  }),
  updateProfile: endpoint({
    method: "PATCH",
    path: "/api/v1/update-profile/",
    access: "user",
    tag: "accounts",
    body: UpdateProfileBody,
    reply: UpdateProfileReply,
    summary:
      "Changes the caller's name, e-mail, phone or picture; the current password is required (wrong tries are limited). " +
      "A changed e-mail or phone is no longer confirmed.",
  }),
  // Identity details for payment ------------------------------------------------------------------
  myIdentity: endpoint({
    method: "GET",
    path: "/api/v1/my-identity/",
    access: "user",
    tag: "identity",
    reply: Identity,
    summary:
      "The caller's identity details (NID number, NID photos, phone); 404 until given.",
  }),
  saveIdentity: endpoint({
    method: "PUT",
    path: "/api/v1/my-identity/",
    access: "user",
    tag: "identity",
    body: IdentityBody,
    reply: Identity,
    summary:
      "Gives or replaces the caller's identity details; the photos are the caller's own uploads of upload-nid.",
  }),
  userIdentity: endpoint({
    method: "GET",
    path: "/api/v1/admin-users/:id/identity/",
    access: "staff",
    tag: "identity",
    params: IdParams,
    reply: Identity,
    summary:
      "A player's identity details, for staff; 404 when he has given none.",
  }),
  // Lotteries ---------------------------------------------------------------------------------------
  publishedLotteries: endpoint({
    method: "GET",
    path: "/api/v1/published-lotteries/",
    access: "public",
    tag: "lotteries",
    query: Paging,
    reply: z.array(Lottery),
    paged: true,
    summary:
      "Published lotteries, purchasable first, paged (total in X-Total-Count).",
  }),
  featuredLotteries: endpoint({
    method: "GET",
    path: "/api/v1/featured-lotteries/",
    access: "public",
    tag: "lotteries",
    reply: z.array(Lottery),
    summary: "Featured lotteries that are on sale now (at most 10).",
  }),
  lotteryResults: endpoint({
    method: "GET",
    path: "/api/v1/lottery-results/",
    access: "public",
    tag: "lotteries",
    reply: z.array(DrawResult),
    summary:
      "The latest published draws with their winning tickets (at most 10).",
  }),
  getLottery: endpoint({
    method: "GET",
    path: "/api/v1/get-lottery/:id/",
    access: "public",
    tag: "lotteries",
    params: IdParams,
    reply: Lottery,
    summary: "One lottery; an unpublished one exists only for staff.",
  }),
  // Purchases ---------------------------------------------------------------------------------------
  createTransaction: endpoint({
    method: "POST",
    path: "/api/v1/transactions-create/",
    access: "user",
    tag: "purchases",
    body: PurchaseBody,
    reply: PurchaseReply,
    status: 201,
    idempotent: true,
    summary:
      "Buys a ticket: a pending bKash transaction of the caller for the lottery's own price, with the bKash receiver number. " +
      "Send an Idempotency-Key header (1–100 printable characters): a retry with the same key answers 200 with the first transaction.",
  }),
  setTrxId: endpoint({
    method: "PATCH",
    path: "/api/v1/transactions/:id/trx-id/",
    access: "user",
    tag: "purchases",
    params: IdParams,
    body: TrxIdBody,
    reply: PlayerTransaction,
    summary:
      "The bKash TrxID (and the bKash number paid from) of the caller's own pending purchase; given once.",
  }),
  myTransactions: endpoint({
    method: "GET",
    path: "/api/v1/my-transactions/",
    access: "user",
    tag: "purchases",
    query: Paging,
    reply: z.array(PlayerTransaction),
    paged: true,
    summary:
      "The caller's own transactions, newest first, with their lottery and prize, paged (total in X-Total-Count).",
  }),
  myTransaction: endpoint({
    method: "GET",
    path: "/api/v1/my-transactions/:id/",
    access: "user",
    tag: "purchases",
    params: IdParams,
    reply: PurchaseReply,
    summary:
      "One of the caller's own transactions, with where and how much to pay (another player's is 404).",
  }),
  transactions: endpoint({
    method: "GET",
    path: "/api/v1/transactions/",
    access: "staff",
    tag: "purchases",
    query: StaffTransactionsQuery,
    reply: z.array(StaffTransaction),
    paged: true,
    summary:
      "Every transaction, newest first: search by player name, phone, e-mail, ticket, TrxID or lottery name, filter by status; paged.",
  }),
  updateTransaction: endpoint({
    method: "PUT",
    path: "/api/v1/transactions/:id/",
    access: "staff",
    tag: "purchases",
    params: IdParams,
    body: StatusBody,
    reply: StaffTransaction,
    summary:
      "Approves, rejects or moves back a transaction (pending ↔ success, pending ↔ failed); audited.",
  }),
  // Pictures and contact ----------------------------------------------------------------------------
  uploadImage: endpoint({
    method: "POST",
    path: "/api/v1/upload-image/",
    access: "public",
    tag: "uploads",
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    summary:
      "Stores a picture sent as the raw body (JPEG, PNG or WebP, at most 2 MiB; the type is read from the bytes).",
  }),
  uploadNid: endpoint({
    method: "POST",
    path: "/api/v1/upload-nid/",
    access: "user",
    tag: "uploads",
    raw: PICTURE_TYPES,
    reply: UploadReply,
    status: 201,
    summary:
      "Stores a photo of the caller's NID card (raw JPEG, PNG or WebP, at most 2 MiB), served only to him and to staff.",
  }),
  getUpload: endpoint({
    method: "GET",
    path: "/api/v1/uploads/:id/",
    access: "user",
    tag: "uploads",
    params: UploadParams,
    reply: null,
    summary: "A stored picture, for its owner and for staff only.",
  }),
  contact: endpoint({
    method: "POST",
    path: "/api/v1/contact/",
    access: "public",
    tag: "contact",
    body: ContactBody,
    reply: Detail,
    status: 201,
    summary:
      "Stores a message for support (and forwards it where mail is configured).",
  }),
  openApi: endpoint({
    method: "GET",
    path: "/api/openapi.json",
    access: "public",
    tag: "meta",
    reply: null,
    summary: "This document: the API described in OpenAPI 3.1.",
  }),
} as const;

export type Api = typeof api;
