import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_SECOND_APPROVAL_TK } from '../shared/claims/payout.ts';
import { PRODUCTION_HASH_COST } from './accounts/passwords.ts';
import { ALPHA_DEFAULT_URL } from './notify/gateways/alphasms.ts';
import { SSL_DEFAULT_URL } from './notify/gateways/sslwireless.ts';
import { SMS_GATEWAYS, type SmsGatewayName } from './notify/gateways/types.ts';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** The settings each SMS gateway cannot go without (docs/rules/messages.md#7-sms-gateways). */
export const GATEWAY_SETTINGS = {
  generic: ['SMS_GATEWAY_URL'],
  sslwireless: ['SSLWIRELESS_API_TOKEN', 'SSLWIRELESS_SID'],
  alphasms: ['ALPHASMS_API_KEY'],
} as const satisfies Record<SmsGatewayName, readonly string[]>;

const durationSec = z.coerce.number().int().positive();
const mode = z.enum(['development', 'production', 'test']);

const EnvSchema = z
  .object({
    // The app's own mode (Secure cookies, HSTS, what production requires); NODE_ENV's value unless set. `npm start`
    // runs libraries (React) with NODE_ENV=production and the app with APP_ENV=development on plain http.
    APP_ENV: mode.optional(),
    NODE_ENV: mode.default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    API_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
    ADMIN_PHONE: z
      .string()
      .regex(/^01\d{9}$/, 'must be an 11-digit phone number like 01712345678')
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    SEED_DEMO: bool.optional(),
    NOTIFY_TRANSPORT: z.enum(['log', 'live']).default('log'),
    NOTIFY_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default('Bhagya <no-reply@bhagya.com.bd>'),
    // SMS gateways (docs/rules/messages.md#7-sms-gateways): which one sends, which one takes what it could not send for
    // now, and each one's settings (the keys and tokens never logged).
    SMS_GATEWAY: z.enum(SMS_GATEWAYS).default('generic'),
    SMS_FALLBACK_GATEWAY: z.enum(SMS_GATEWAYS).optional(),
    SMS_GATEWAY_URL: z.url({ protocol: /^https?$/ }).optional(),
    SMS_GATEWAY_KEY: z.string().min(1).optional(),
    SSLWIRELESS_URL: z.url({ protocol: /^https?$/ }).default(SSL_DEFAULT_URL),
    SSLWIRELESS_API_TOKEN: z.string().min(1).max(50).optional(),
    SSLWIRELESS_SID: z.string().min(1).max(20).optional(),
    ALPHASMS_URL: z.url({ protocol: /^https?$/ }).default(ALPHA_DEFAULT_URL),
    ALPHASMS_API_KEY: z.string().min(1).optional(),
    ALPHASMS_SENDER_ID: z.string().min(1).max(20).optional(),
    SECRET_KEY: z
      .string()
      .refine((s) => s.trim() !== '', 'is blank (only whitespace)')
      .refine((s) => s.trim() === '' || s.length >= 32, 'must be at least 32 characters')
      .optional(),
    // The SECRET_KEY before a rotation: it still opens the secrets it sealed until start-up sealed them again
    // (docs/rules/security.md#6-secrets-and-configuration).
    SECRET_KEY_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
    ACCESS_TOKEN_TTL: durationSec.default(15 * 60),
    REFRESH_TOKEN_TTL: durationSec.default(7 * 24 * 3600),
    // The bKash account players pay into (docs/rules/lotteries-and-sales.md#7-buying-a-ticket); required in production.
    BKASH_RECEIVER_NUMBER: z
      .string()
      .regex(/^01\d{9}$/, 'must be an 11-digit bKash number like 01712345678')
      .optional(),
    // bKash's Tokenized Checkout (docs/rules/payments.md#7-configuration): the simulator in this process (the default
    // outside production, refused in production), bKash's sandbox or the live service.
    BKASH_MODE: z.enum(['simulator', 'sandbox', 'live']).optional(),
    BKASH_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    BKASH_APP_KEY: z.string().min(1).optional(),
    BKASH_APP_SECRET: z.string().min(1).optional(),
    BKASH_USERNAME: z.string().min(1).optional(),
    BKASH_PASSWORD: z.string().min(1).optional(),
    // bKash's B2C payout, which pays prizes to bKash wallets (docs/rules/bkash.md#9-payouts-b2c): its own host (the
    // Checkout API's; default per BKASH_MODE) and, where bKash gave the payout product credentials of its own, those.
    BKASH_PAYOUT_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    BKASH_PAYOUT_APP_KEY: z.string().min(1).optional(),
    BKASH_PAYOUT_APP_SECRET: z.string().min(1).optional(),
    BKASH_PAYOUT_USERNAME: z.string().min(1).optional(),
    BKASH_PAYOUT_PASSWORD: z.string().min(1).optional(),
    // How long one call to bKash may take (each try; grant, create and status are tried up to three times).
    BKASH_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
    // drand relays the server fetches the draw's beacon from (docs/rules/draws.md#4-the-beacon): comma-separated base
    // URLs, tried in order, or `none`. Default: drand's own relays in production, none elsewhere (staff enter it).
    DRAND_URLS: z
      .string()
      .refine(
        (s) => s.trim() === 'none' || s.split(',').every((u) => z.url({ protocol: /^https?$/ }).safeParse(u.trim()).success),
        'must be comma-separated http(s) URLs of drand relays, or none',
      )
      .optional(),
    SUPPORT_EMAIL: z.email().default('support@bhagya.com.bd'),
    SUPPORT_PHONE: z
      .string()
      .regex(/^\+?[0-9 -]{3,20}$/, 'must be a phone number')
      .default('16247'),
    SUPPORT_ADDRESS: z.string().max(200).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
    // The connections one instance opens to PostgreSQL at most, shared by its workers (docs/rules/operations.md#6-several-instances).
    DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(1000).default(10),
    PAGE_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
    TRUST_PROXY: z.string().optional(),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // On SIGTERM, how long /readyz fails while new requests are still taken, before the server stops listening
    // (docs/rules/operations.md#4-stopping); unset: 5 s in production, none in development.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).optional(),
    // How many processes serve (docs/rules/operations.md#6-several-instances): one per core with PostgreSQL unless set;
    // the embedded database belongs to one process, so always 1 without DATABASE_URL.
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    // The background jobs' pace (server/jobs.ts): the bKash reconciliation's first run after the start, and how often
    // the messages' sender runs. The defaults are production's; the tests of a restart shorten them.
    RECONCILE_FIRST_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    DISPATCH_EVERY_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    // A prize transfer of more than this many whole taka needs a second staff member's approval
    // (docs/rules/lotteries-and-sales.md#11-prize-claims); 0: every transfer does.
    // log2 of scrypt's N for new password hashes (server/accounts/passwords.ts); production refuses less than 17.
    PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(PRODUCTION_HASH_COST),
    // Web Push to the installed app (docs/rules/messages.md#6-push-notifications): the VAPID key pair (base64url, the
    // public key the 65-byte P-256 point, the private key its 32-byte scalar) and who the push services may contact.
    // All three or none; none: push is off (outside production a pair is generated and kept in DATA_DIR).
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the 65-byte P-256 public key in base64url (87 characters)')
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 32-byte P-256 private key in base64url (43 characters)')
      .optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL')
      .optional(),
    PAYOUT_SECOND_APPROVAL_TK: z
      .string()
      .regex(/^\d{1,12}$/, 'must be a whole number of taka (digits only, like 10000)')
      .transform(Number)
      .default(DEFAULT_SECOND_APPROVAL_TK),
  })
  .superRefine((env, ctx) => {
    if (!env.DATABASE_URL && env.WEB_CONCURRENCY !== undefined && env.WEB_CONCURRENCY > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['WEB_CONCURRENCY'],
        message: 'must be 1 on the embedded database (its files belong to one process); set DATABASE_URL for more workers',
      });
    if ((env.APP_ENV ?? env.NODE_ENV) === 'production') {
      if (!env.SECRET_KEY) ctx.addIssue({ code: 'custom', path: ['SECRET_KEY'], message: 'is required in production' });
      // docs/rules/accounts-and-codes.md#8-where-codes-are-sent: the log transport writes live codes to the log.
      if (env.NOTIFY_TRANSPORT === 'log')
        ctx.addIssue({
          code: 'custom',
          path: ['NOTIFY_TRANSPORT'],
          message:
            'must be live in production (log writes one-time codes to the server log); set SMTP_URL and an SMS gateway (SMS_GATEWAY and its settings)',
        });
      if (env.BKASH_MODE === undefined || env.BKASH_MODE === 'simulator')
        ctx.addIssue({
          code: 'custom',
          path: ['BKASH_MODE'],
          message: 'must be sandbox or live in production (the simulator takes no real money)',
        });
      if (env.PASSWORD_HASH_COST < PRODUCTION_HASH_COST)
        ctx.addIssue({
          code: 'custom',
          path: ['PASSWORD_HASH_COST'],
          message: `must be at least ${PRODUCTION_HASH_COST} in production (a lower cost is for tests only)`,
        });
      if (!env.BKASH_RECEIVER_NUMBER)
        ctx.addIssue({
          code: 'custom',
          path: ['BKASH_RECEIVER_NUMBER'],
          message: 'is required in production (the bKash number players pay into)',
        });
    }
    if (env.NOTIFY_TRANSPORT === 'live') {
      if (!env.SMTP_URL)
        ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required with NOTIFY_TRANSPORT=live (e-mail codes)' });
      // Each gateway named, the one that sends and the fallback, with every setting it needs.
      const named = [
        ['SMS_GATEWAY', env.SMS_GATEWAY] as const,
        ...(env.SMS_FALLBACK_GATEWAY ? [['SMS_FALLBACK_GATEWAY', env.SMS_FALLBACK_GATEWAY] as const] : []),
      ];
      for (const [variable, gateway] of named)
        for (const k of GATEWAY_SETTINGS[gateway])
          if (!env[k])
            ctx.addIssue({
              code: 'custom',
              path: [k],
              message: `is required with NOTIFY_TRANSPORT=live and ${variable}=${gateway} (SMS codes)`,
            });
      if (env.SMS_FALLBACK_GATEWAY === env.SMS_GATEWAY)
        ctx.addIssue({ code: 'custom', path: ['SMS_FALLBACK_GATEWAY'], message: 'must be another gateway than SMS_GATEWAY' });
    }
    if (env.BKASH_MODE === 'sandbox' || env.BKASH_MODE === 'live') {
      for (const k of ['BKASH_APP_KEY', 'BKASH_APP_SECRET', 'BKASH_USERNAME', 'BKASH_PASSWORD'] as const)
        if (!env[k]) ctx.addIssue({ code: 'custom', path: [k], message: `is required with BKASH_MODE=${env.BKASH_MODE}` });
    }
    const vapid = [env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY, env.VAPID_SUBJECT].filter(Boolean).length;
    if (vapid > 0 && vapid < 3)
      for (const k of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const)
        if (!env[k])
          ctx.addIssue({ code: 'custom', path: [k], message: 'is required with the other VAPID_ variables (all three, or none: no push)' });
    if (Boolean(env.ADMIN_PHONE) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_PHONE ? 'ADMIN_PASSWORD' : 'ADMIN_PHONE'],
        message: 'ADMIN_PHONE and ADMIN_PASSWORD go together',
      });
    }
  });

type VapidKeys = 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT';

/** Web Push's configuration: the private key is never logged, the public one is what browsers subscribe with. */
export type PushConfig = { publicKey: string; privateKey: string; subject: string; source: 'env' | 'generated' };

type BkashKeys =
  | 'BKASH_MODE'
  | 'BKASH_BASE_URL'
  | 'BKASH_APP_KEY'
  | 'BKASH_APP_SECRET'
  | 'BKASH_USERNAME'
  | 'BKASH_PASSWORD'
  | 'BKASH_PAYOUT_BASE_URL'
  | 'BKASH_PAYOUT_APP_KEY'
  | 'BKASH_PAYOUT_APP_SECRET'
  | 'BKASH_PAYOUT_USERNAME'
  | 'BKASH_PAYOUT_PASSWORD';

export type Config = Omit<
  z.infer<typeof EnvSchema>,
  'APP_ENV' | 'NODE_ENV' | 'SECRET_KEY' | 'SEED_DEMO' | 'BKASH_RECEIVER_NUMBER' | 'DRAND_URLS' | BkashKeys | VapidKeys
> & {
  /** Web Push's VAPID keys and subject; null: push is off (docs/rules/messages.md#6-push-notifications). */
  push: PushConfig | null;
  /** DRAND_URLS as a list, trailing slashes removed; empty: the server fetches no beacon. */
  drandRelays: string[];
  /** The app's mode: APP_ENV, else NODE_ENV, else development. */
  APP_ENV: z.infer<typeof mode>;
  SECRET_KEY: string;
  SEED_DEMO: boolean;
  /** BKASH_RECEIVER_NUMBER, or outside production a development stand-in (DEV_BKASH_RECEIVER_NUMBER). */
  BKASH_RECEIVER_NUMBER: string;
  /** bKash's checkout: the mode, where its API is, and the merchant's credentials (never logged). */
  bkash: BkashConfig;
  /** Where the secret came from, so that start-up can warn about a generated one. */
  secretSource: 'env' | 'generated';
  uploadsDir: string;
  /** Processes that serve: WEB_CONCURRENCY, else one per core with PostgreSQL and one on the embedded database. */
  workers: number;
  /** Each worker's PostgreSQL connections at most: its share of DATABASE_POOL_MAX (poolShare). */
  poolMax: number;
};

export type BkashConfig = {
  mode: 'simulator' | 'sandbox' | 'live';
  /** The API's base URL (…/v1.2.0-beta); for the simulator its mount point in this process. */
  baseUrl: string;
  appKey: string;
  appSecret: string;
  username: string;
  password: string;
  /** Where bKash's payment pages are (the CSP's form-action lets a form's answer send the player there). */
  checkoutOrigins: string[];
  /** bKash's B2C payout (prizes paid to bKash wallets): its base URL and credentials (the checkout's unless set apart). */
  payout: { baseUrl: string; appKey: string; appSecret: string; username: string; password: string };
};

/** The credentials the simulator is run with and accepts (it takes no real money; production refuses it). */
export const SIMULATOR_CREDENTIALS = {
  appKey: 'simulator-app-key',
  appSecret: 'simulator-app-secret',
  username: 'simulator',
  password: 'simulator-password',
} as const;

/** bKash's published addresses per mode (docs/rules/payments.md#7-configuration). */
const BKASH_SERVICE = {
  sandbox: {
    baseUrl: 'https://tokenized.sandbox.bka.sh/v1.2.0-beta',
    payoutBaseUrl: 'https://checkout.sandbox.bka.sh/v1.2.0-beta',
    checkoutOrigins: ['https://sandbox.payment.bkash.com'],
  },
  live: {
    baseUrl: 'https://tokenized.pay.bka.sh/v1.2.0-beta',
    payoutBaseUrl: 'https://checkout.pay.bka.sh/v1.2.0-beta',
    checkoutOrigins: ['https://payment.bkash.com'],
  },
} as const;

export class ConfigError extends Error {}

/** drand's relays a production server fetches the beacon from when DRAND_URLS is not set. */
export const DEFAULT_DRAND_URLS = ['https://api.drand.sh', 'https://drand.cloudflare.com'] as const;

/** The receiver number development and tests show when BKASH_RECEIVER_NUMBER is not set (never used in production). */
export const DEV_BKASH_RECEIVER_NUMBER = '01700000000';

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    // One line (start-up failures are one line each, server/index.ts), every bad variable named.
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${issues.join('; ')}`);
  }
  const {
    NODE_ENV,
    APP_ENV = NODE_ENV,
    BKASH_MODE,
    BKASH_BASE_URL,
    BKASH_APP_KEY,
    BKASH_APP_SECRET,
    BKASH_USERNAME,
    BKASH_PASSWORD,
    BKASH_PAYOUT_BASE_URL,
    BKASH_PAYOUT_APP_KEY,
    BKASH_PAYOUT_APP_SECRET,
    BKASH_PAYOUT_USERNAME,
    BKASH_PAYOUT_PASSWORD,
    DRAND_URLS,
    VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY,
    VAPID_SUBJECT,
    ...e
  } = parsed.data;
  const drandRelays =
    DRAND_URLS === undefined
      ? APP_ENV === 'production'
        ? [...DEFAULT_DRAND_URLS]
        : []
      : DRAND_URLS.trim() === 'none'
        ? []
        : DRAND_URLS.split(',').map((u) => u.trim().replace(/\/+$/, ''));
  const bkashMode = BKASH_MODE ?? 'simulator';
  const checkout =
    bkashMode === 'simulator'
      ? {
          mode: bkashMode,
          // The simulator is mounted at /_bkash of this very server (server/app.ts).
          baseUrl: (BKASH_BASE_URL ?? `http://127.0.0.1:${e.PORT}/_bkash`).replace(/\/+$/, ''),
          ...SIMULATOR_CREDENTIALS,
          checkoutOrigins: [],
        }
      : {
          mode: bkashMode,
          baseUrl: (BKASH_BASE_URL ?? BKASH_SERVICE[bkashMode].baseUrl).replace(/\/+$/, ''),
          appKey: BKASH_APP_KEY as string,
          appSecret: BKASH_APP_SECRET as string,
          username: BKASH_USERNAME as string,
          password: BKASH_PASSWORD as string,
          checkoutOrigins: [...BKASH_SERVICE[bkashMode].checkoutOrigins],
        };
  const bkash: BkashConfig = {
    ...checkout,
    payout: {
      // The simulator answers the payout's paths too, at the same mount.
      baseUrl: (BKASH_PAYOUT_BASE_URL ?? (bkashMode === 'simulator' ? checkout.baseUrl : BKASH_SERVICE[bkashMode].payoutBaseUrl)).replace(
        /\/+$/,
        '',
      ),
      appKey: BKASH_PAYOUT_APP_KEY ?? checkout.appKey,
      appSecret: BKASH_PAYOUT_APP_SECRET ?? checkout.appSecret,
      username: BKASH_PAYOUT_USERNAME ?? checkout.username,
      password: BKASH_PAYOUT_PASSWORD ?? checkout.password,
    },
  };
  const dataDir = path.resolve(e.DATA_DIR);
  let secret = e.SECRET_KEY;
  let secretSource: Config['secretSource'] = 'env';
  if (!secret) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(dataDir, 'secret.key');
    if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
    secret = readFileSync(file, 'utf8').trim();
    secretSource = 'generated';
  }
  const push: PushConfig | null =
    VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY && VAPID_SUBJECT
      ? { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject: VAPID_SUBJECT, source: 'env' }
      : APP_ENV === 'production'
        ? null
        : { ...devVapidKeys(dataDir), subject: `mailto:${e.SUPPORT_EMAIL}`, source: 'generated' };
  const workers = e.WEB_CONCURRENCY ?? (e.DATABASE_URL ? availableParallelism() : 1);
  return {
    ...e,
    APP_ENV,
    push,
    DATA_DIR: dataDir,
    SECRET_KEY: secret,
    secretSource,
    bkash,
    drandRelays,
    BKASH_RECEIVER_NUMBER: e.BKASH_RECEIVER_NUMBER ?? DEV_BKASH_RECEIVER_NUMBER,
    // Demo data (with its published staff password) only on a development embedded database unless asked for.
    SEED_DEMO: e.SEED_DEMO ?? (!e.DATABASE_URL && APP_ENV !== 'production'),
    uploadsDir: path.join(dataDir, 'uploads'),
    workers,
    poolMax: poolShare(e.DATABASE_POOL_MAX, workers),
  };
}

/**
 * A worker's share of the instance's PostgreSQL connections: the instance opens at most `instanceMax` however many
 * workers it runs (several instances, each of several workers, must fit the server's `max_connections`), each worker
 * at least 2 (one may wait on another's transaction).
 */
export const poolShare = (instanceMax: number, workers: number): number => Math.max(2, Math.floor(instanceMax / workers));

/**
 * Outside production without VAPID_ variables: a P-256 key pair made once and kept in DATA_DIR/vapid.json, so that push
 * works out of the box and a restart keeps the devices subscribed (a new pair would orphan every subscription).
 */
const KeptVapid = z.object({ publicKey: z.string().length(87), privateKey: z.string().length(43) });
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
function devVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const kept = KeptVapid.safeParse(parseJson(readFileSync(file, 'utf8')));
    if (kept.success) return kept.data;
  }
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The scalar is 32 bytes even when it starts with zeros.
  const privateKey = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
    .subarray(-32)
    .toString('base64url');
  const keys = { publicKey: ecdh.getPublicKey('base64url'), privateKey };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
