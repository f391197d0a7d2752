import type { Texts } from './i18n.ts';
import type { i18n as I18n } from 'i18next';
import { Challenges } from './accounts/challenge.ts';
import { Codes } from './accounts/codes.ts';
import { Accounts } from './accounts/service.ts';
import { Tokens } from './accounts/tokens.ts';
import { AuditLog } from './audit/service.ts';
import { Background } from './background.ts';
import { PrizePayouts } from './claims/payouts.ts';
import { Claims } from './claims/service.ts';
import type { Config } from './config.ts';
import { Contact, type ContactMessage } from './contact/service.ts';
import type { Keyring } from './crypto/sealed.ts';
import { DashboardFigures } from './dashboard/service.ts';
import type { Db } from './db/index.ts';
import { Draws } from './draws/service.ts';
import { PrizeWithholdings } from './draws/withholding.ts';
import { GameCalendar } from './games/calendar-job.ts';
import { GameAdmin } from './games/service.ts';
import { GeneratedTickets } from './generated-tickets/service.ts';
import { Identities } from './identity/service.ts';
import type { Logger } from './log.ts';
import { LotteryAdmin } from './lotteries/admin-service.ts';
import { Lotteries } from './lotteries/service.ts';
import { Messages } from './messages/service.ts';
import { smsGateways } from './notify/gateways/index.ts';
import { Deliveries } from './notify/service.ts';
import { liveNotifier, logNotifier, sendMailWithin, smtpMailer, type Notifier } from './notify/index.ts';
import { BkashClient } from './payments/bkash/client.ts';
import { BkashPayouts } from './payments/bkash/payouts.ts';
import { Payments } from './payments/service.ts';
import { Agreements } from './payments/agreements.ts';
import { Statements } from './payments/statement-service.ts';
import { Play } from './play-safe/service.ts';
import { ManualApprovals } from './purchases/approvals.ts';
import { Purchases } from './purchases/service.ts';
import { Runs } from './purchases/runs.ts';
import { Push } from './push/service.ts';
import type { PushTransport } from './push/transport.ts';
import { Results } from './results/service.ts';
import { Uploads } from './uploads/service.ts';
import { UserAdmin } from './users/service.ts';

export type ServiceOptions = {
  config: Config;
  db: Db;
  log: Logger;
  /** The server's i18next instance (the texts of messages and pushes). */
  i18n: I18n;
  /** The keys secrets at rest are sealed with (server/crypto/sealed.ts). */
  keys: Keyring;
  /** How codes and messages are sent; by default from NOTIFY_TRANSPORT (tests: a capturing notifier). */
  notifier?: Notifier | undefined;
  /** How pushes are sent; by default web-push with the configured VAPID keys (tests: a local push service). */
  pushTransport?: PushTransport | undefined;
  /** The first pause before bKash's call is repeated (tests: 1 ms; server/payments/bkash/client.ts has the default). */
  bkashRetryDelayMs?: number | undefined;
};

/**
 * Every service of the product, built once (docs/decisions/063-where-the-weight-is.md): the app's start-up step and
 * its background jobs use some of them, the API's routes all of them (server/api.ts). Building them touches nothing:
 * no query, no timer.
 */
export type Services = ReturnType<typeof buildServices>;

/** Builds the services from the configuration; the only place that does. */
export function buildServices(o: ServiceOptions) {
  const { config, db, log, keys } = o;
  const tokens = new Tokens(config.SECRET_KEY, config.ACCESS_TOKEN_TTL, config.REFRESH_TOKEN_TTL);
  const codes = new Codes(db, config.SECRET_KEY);
  const mailer = config.NOTIFY_TRANSPORT === 'live' ? smtpMailer(config.SMTP_URL as string, config.NOTIFY_TIMEOUT_MS) : null;
  // The SMS gateways (docs/rules/messages.md#7-sms-gateways): sending, and asking for delivery reports.
  const gateways = smsGateways(config);
  const notifier =
    o.notifier ??
    (mailer
      ? liveNotifier(db, log, {
          mailer,
          mailFrom: config.MAIL_FROM,
          sms: gateways,
          timeoutMs: config.NOTIFY_TIMEOUT_MS,
        })
      : logNotifier(db, log));
  /** Work sent after the answer (codes sent in the background); the app waits for it before it closes. */
  const background = new Background(log);
  // The app's texts (server/i18n.ts Texts): what a service words in a player's own language.
  const texts: Texts = o.i18n.t.bind(o.i18n);
  const accounts = new Accounts({
    db,
    tokens,
    codes,
    challenges: new Challenges(db, config.SECRET_KEY, texts),
    notifier,
    texts,
    defer: background.run,
  });
  // Contact messages are stored; with live mail they are also forwarded to support (reply goes to the sender),
  // in the background (server/contact/service.ts).
  const forwardContact = mailer
    ? (m: ContactMessage) =>
        sendMailWithin(
          mailer,
          { from: config.MAIL_FROM, to: config.SUPPORT_EMAIL, replyTo: m.email, subject: `Contact form: ${m.name}`, text: m.message },
          config.NOTIFY_TIMEOUT_MS,
        )
    : null;
  // bKash's checkout (docs/rules/payments.md): one client (one token) per instance; the simulator is mounted by the app.
  const bkash = new BkashClient({
    baseUrl: config.bkash.baseUrl,
    appKey: config.bkash.appKey,
    appSecret: config.bkash.appSecret,
    username: config.bkash.username,
    password: config.bkash.password,
    timeoutMs: config.BKASH_TIMEOUT_MS,
    ...(o.bkashRetryDelayMs === undefined ? {} : { retryDelayMs: o.bkashRetryDelayMs }),
  });
  const payments = new Payments({
    db,
    log,
    gateway: bkash,
    publicOrigin: config.PUBLIC_ORIGIN,
    defer: background.run,
    // The player waits for the callback's answer at most this long, well within a page's call to the API; what is
    // not settled by then is settled in the background, and his payment page says "waiting for bKash".
    callbackWaitMs: Math.floor(config.UPSTREAM_TIMEOUT_MS * 0.6),
    receiver: config.BKASH_RECEIVER_NUMBER,
  });
  // bKash's B2C payout, which pays prizes to bKash wallets (docs/rules/bkash.md#9-payouts-b2c): its own host and token.
  const bkashPayouts = new BkashPayouts({
    ...config.bkash.payout,
    timeoutMs: config.BKASH_TIMEOUT_MS,
    ...(o.bkashRetryDelayMs === undefined ? {} : { retryDelayMs: o.bkashRetryDelayMs }),
  });
  const agreements = new Agreements({ db, log, gateway: bkash, publicOrigin: config.PUBLIC_ORIGIN, defer: background.run });
  const messages = new Messages({ db, notifier, log, t: texts });
  const push = new Push({
    db,
    log,
    t: texts,
    config: config.push,
    production: config.APP_ENV === 'production',
    timeoutMs: config.NOTIFY_TIMEOUT_MS,
    ...(o.pushTransport ? { transport: o.pushTransport } : {}),
  });

  const statements = new Statements(db, config.BKASH_RECEIVER_NUMBER, texts);
  const purchases = new Purchases({
    db,
    bkashReceiverNumber: config.BKASH_RECEIVER_NUMBER,
    checkoutsOf: (ids, tx) => payments.checkoutsOf(ids, tx),
    reconciliationOf: (ids, tx) => statements.reconciliationOf(ids, tx),
    trxIdChecksOf: (ids, tx) => payments.trxIdChecksOf(ids, tx),
    trxIdGiven: (check) => payments.trxIdGiven(check),
  });
  const lotteryAdmin = new LotteryAdmin(db, keys);
  const claims = new Claims({ db, codes, notifier, texts, secondApprovalTk: config.PAYOUT_SECOND_APPROVAL_TK });
  const draws = new Draws(db, keys, notifier, texts, config.PUBLIC_ORIGIN);
  return {
    tokens,
    codes,
    notifier,
    background,
    accounts,
    bkash,
    payments,
    agreements,
    messages,
    deliveries: new Deliveries({
      db,
      log,
      gateways: [gateways.primary, ...(gateways.fallback ? [gateways.fallback] : [])],
      timeoutMs: config.NOTIFY_TIMEOUT_MS,
    }),
    push,
    statements,
    purchases,
    runs: new Runs(db),
    lotteryAdmin,
    lotteries: new Lotteries(db),
    auditLog: new AuditLog(db),
    dashboard: new DashboardFigures(db, lotteryAdmin, purchases, () => statements.toDecide()),
    manualApprovals: new ManualApprovals(db),
    draws,
    games: new GameAdmin(db, keys),
    gameCalendar: new GameCalendar(db, keys, draws, log),
    withholdings: new PrizeWithholdings(db),
    claims,
    bkashPayouts,
    payouts: new PrizePayouts({ db, log, gateway: bkashPayouts, claims, secondApprovalTk: config.PAYOUT_SECOND_APPROVAL_TK }),
    generatedTickets: new GeneratedTickets(db, keys),
    uploads: new Uploads(db),
    userAdmin: new UserAdmin(db, notifier, texts),
    identities: new Identities(db),
    play: new Play(db),
    contact: new Contact(db, log, forwardContact),
    results: new Results(db),
  };
}
