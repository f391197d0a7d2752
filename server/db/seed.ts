import { createHash } from 'node:crypto';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import type { Logger } from '../log.ts';
import { nextSaturdayDraw } from '../../shared/dates.ts';
import { formatTicket, randomTicket } from '../../shared/ticket.ts';
import { splitPrize } from '../../shared/money.ts';
import type { Db } from './index.ts';
import type { Keyring } from '../crypto/sealed.ts';
import { seedDemoGame } from '../games/demo.ts';
import { underStartLock } from './migrate.ts';
import { BEACON_SOURCE, commitment, newSeed, quicknetRound, roundTime, selectWinners, sortedTickets } from '../draws/verifiable.ts';

/**
 * The demo staff login printed at start and in the README, with its published password: created only with SEED_DEMO
 * and without ADMIN_PHONE (docs/rules/accounts-and-codes.md#12-staff-and-superusers).
 */
export const DEMO_STAFF = { phone: '01900000000', password: 'bhagya-demo-2026' } as const;

/**
 * The sample players who hold the drawn samples' winning tickets. Their numbers start 010, a prefix no Bangladeshi
 * operator assigns (mobile numbers are 013–019), so no real player or ADMIN_PHONE is ever one of them; the
 * phone rule (`01` and 9 digits) still reads them. They have no password: nobody can log in as them.
 */
export const DEMO_PLAYERS = [
  { name: 'Rahim Uddin', phone: '01000000001' },
  { name: 'Fatema Begum', phone: '01000000002' },
  { name: 'Karim Hossain', phone: '01000000003' },
] as const;

/** Not an scrypt hash: verifyPassword refuses every password for it. */
const NO_PASSWORD = '!no-password';

const WEEK = 7 * 24 * 3600 * 1000;

type Sample = {
  name: string;
  description: string;
  /** Bengali name and description (docs/rules/bengali.md). */
  name_bn: string;
  description_bn: string;
  weeks: number;
  price: number;
  prize: number;
  winners: number;
  tickets: number;
  featured: boolean;
};

const OPEN: Sample[] = [
  {
    name: 'Saturday Mega Draw',
    // What the game does (decision 057): three winning tickets drawn among those sold, not numbers matched.
    description: 'The weekly big draw: three winning tickets are drawn among the tickets sold and share the prize equally.',
    name_bn: 'শনিবারের মেগা ড্র',
    description_bn: 'সাপ্তাহিক বড় ড্র: বিক্রি হওয়া টিকিটের মধ্য থেকে তিনটি বিজয়ী টিকিট ড্র হবে, সেগুলো পুরস্কার সমান ভাগে পাবে।',
    weeks: 0,
    price: 100,
    prize: 1_000_000,
    winners: 3,
    tickets: 10_000,
    featured: true,
  },
  {
    name: 'Boishakhi Bumper',
    description: 'A festive bumper draw with five equal winning shares.',
    name_bn: 'বৈশাখী বাম্পার',
    description_bn: 'উৎসবের বাম্পার ড্র, পাঁচজন বিজয়ী পাবেন সমান ভাগ।',
    weeks: 1,
    price: 200,
    prize: 5_000_000,
    winners: 5,
    tickets: 50_000,
    featured: true,
  },
  {
    name: 'Lucky 50',
    description: 'Small stake, quick weekly draw.',
    name_bn: 'লাকি ৫০',
    description_bn: 'অল্প টাকায় টিকিট, প্রতি সপ্তাহে ড্র।',
    weeks: 0,
    price: 50,
    prize: 100_000,
    winners: 2,
    tickets: 5_000,
    featured: true,
  },
  {
    name: 'Victory Day Special',
    description: 'Celebrate 16 December with a special draw.',
    name_bn: 'বিজয় দিবস স্পেশাল',
    description_bn: 'বিশেষ ড্র-এর সাথে উদযাপন করুন ১৬ ডিসেম্বর, মহান বিজয় দিবস।',
    weeks: 3,
    price: 150,
    prize: 2_000_000,
    winners: 4,
    tickets: 20_000,
    featured: false,
  },
  {
    name: 'Padma Weekly',
    description: 'A steady weekly draw for regular players.',
    name_bn: 'পদ্মা সাপ্তাহিক',
    description_bn: 'নিয়মিত খেলোয়াড়দের জন্য প্রতি সপ্তাহের ড্র।',
    weeks: 2,
    price: 100,
    prize: 500_000,
    winners: 2,
    tickets: 10_000,
    featured: false,
  },
];

const DRAWN: Sample[] = [
  {
    name: 'Ekushey Draw',
    description: "Last week's draw.",
    name_bn: 'একুশে ড্র',
    description_bn: 'গত সপ্তাহের ড্র।',
    weeks: -1,
    price: 100,
    prize: 600_000,
    winners: 2,
    tickets: 10_000,
    featured: false,
  },
  {
    name: 'Autumn Jackpot',
    description: 'Drawn: three winning tickets shared the total prize.',
    name_bn: 'শরতের জ্যাকপট',
    description_bn: 'ড্র হয়ে গেছে: তিনটি বিজয়ী টিকিট মোট পুরস্কার সমান ভাগে পেয়েছে।',
    weeks: -2,
    price: 100,
    prize: 1_500_000,
    winners: 3,
    tickets: 10_000,
    featured: false,
  },
];

/**
 * Sample lotteries and results on an empty database, so a fresh start shows a working product; with `staff`, the
 * demo staff login too. Runs under the start-up lock and decides inside it: of instances starting together on one
 * database, the first seeds and the others find the lotteries there.
 */
export async function seedDemo(db: Db, log: Logger, opts: { staff: boolean; keys: Keyring }): Promise<void> {
  // Hashed outside the lock (scrypt takes a moment), and only when the login is not there yet.
  const staffHash =
    opts.staff && !(await db.one('SELECT id FROM users WHERE phone = $1', [DEMO_STAFF.phone]))
      ? await hashPassword(DEMO_STAFF.password)
      : null;
  const seeded = await underStartLock(db, async (tx) => {
    if (staffHash) {
      // An account that already has this number (demo staff from an earlier start, or anyone's) is not touched.
      const made = await tx.one(
        `INSERT INTO users (name, phone, password_hash, is_active, is_staff, is_superuser, phone_confirmed)
         VALUES ('Demo Staff', $1, $2, true, true, true, true) ON CONFLICT DO NOTHING RETURNING id`,
        [DEMO_STAFF.phone, staffHash],
      );
      if (made) log.info({ phone: DEMO_STAFF.phone }, 'demo staff login created');
    }
    if (await tx.one('SELECT id FROM lotteries LIMIT 1')) return false;
    const now = Date.now();
    for (const s of OPEN) {
      const end = nextSaturdayDraw(now + s.weeks * WEEK);
      const start = new Date(now - 2 * 24 * 3600 * 1000).toISOString();
      await tx.query(
        `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, name_bn, description_bn)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, $9, $10, $11)`,
        [s.name, s.description, start, end, s.price, s.tickets, s.winners, s.prize, s.featured, s.name_bn, s.description_bn],
      );
    }
    // Players who bought the winning tickets of the drawn samples. A number already taken (an account made by
    // hand in the unassigned range) is left as it is, and its owner gets no sample tickets.
    const players: number[] = [];
    for (const p of DEMO_PLAYERS) {
      const row = await tx.one<{ id: number }>(
        `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed) VALUES ($1, $2, $3, true, true)
       ON CONFLICT DO NOTHING RETURNING id`,
        [p.name, p.phone, NO_PASSWORD],
      );
      if (row) players.push(row.id);
    }
    for (const s of players.length ? DRAWN : []) {
      const end = nextSaturdayDraw(now + s.weeks * WEEK - WEEK);
      const start = new Date(Date.parse(end) - 10 * 24 * 3600 * 1000).toISOString();
      const l = await tx.one<{ id: number }>(
        `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, is_result_published, drawn_at, name_bn, description_bn)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, false, true, $4, $9, $10) RETURNING id`,
        [s.name, s.description, start, end, s.price, s.tickets, s.winners, s.prize, s.name_bn, s.description_bn],
      );
      if (!l) continue;
      await drawSample(tx, l.id, s, start, end, players);
    }
    // A game running on its calendar, with its past draws drawn (server/games/demo.ts).
    if (players.length) await seedDemoGame(tx, opts.keys, players, sampleBeacon, now);
    return true;
  });
  if (seeded) log.info('demo lotteries and results seeded');
  if (!opts.staff) await warnAboutDemoStaff(db, log);
}

/** How many tickets each drawn sample sold besides as many as it has winners: enough for a draw to choose from. */
const SAMPLE_EXTRA_TICKETS = 9;

/**
 * The beacon value of a demo draw: not drand's (a fresh database cannot know a real round's value offline), but a
 * value anyone can recompute, SHA-256 of `bhagya sample beacon <round>`, and marked as a sample in the proof and on
 * the proof page (docs/rules/draws.md#12-where-it-stands).
 */
export const sampleBeacon = (round: number): string => createHash('sha256').update(`bhagya sample beacon ${round}`).digest('hex');

/**
 * A drawn sample, drawn by the procedure (docs/rules/draws.md): tickets sold to the sample players, a seed and its
 * commitment, the drand round after its end of sales with a sample value, the winners selected from them, their
 * prizes, and the proof revealed as the draw would reveal it.
 */
async function drawSample(tx: Db, lotteryId: number, s: Sample, start: string, end: string, players: number[]): Promise<void> {
  const sold = new Set<string>();
  while (sold.size < s.winners + SAMPLE_EXTRA_TICKETS) sold.add(formatTicket(randomTicket()));
  const ids = new Map<string, number>();
  for (const [i, ticket] of [...sold].entries()) {
    const userId = players[i % players.length] as number;
    const t = await tx.one<{ id: number }>(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status, created_at) VALUES ($1, $2, $3, $4, 'bkash', 'success', $5) RETURNING id`,
      [userId, lotteryId, ticket, s.price, start],
    );
    if (t) ids.set(ticket, t.id);
  }
  const seed = newSeed();
  const round = quicknetRound(new Date(end));
  const beacon = sampleBeacon(round);
  const tickets = sortedTickets([...ids.keys()]);
  const drawn = selectWinners({ seed, tickets, beacon, winners: s.winners });
  const { each } = splitPrize(s.prize, drawn.winners.length);
  for (const ticket of drawn.winners)
    await tx.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4)', [
      lotteryId,
      ids.get(ticket),
      ticket,
      each,
    ]);
  // Drawn a minute after the beacon's round, as staff would: never before its value existed.
  const at = roundTime(round);
  const drawnAt = new Date(at.getTime() + 60_000).toISOString();
  await tx.query('UPDATE lotteries SET drawn_at = $2 WHERE id = $1', [lotteryId, drawnAt]);
  await tx.query(
    `INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round, beacon_value, beacon_sample,
       beacon_entered_at, tickets, tickets_digest, max_winners, winners, revealed_at)
     VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8, $9, $10, $11, $12)`,
    [
      lotteryId,
      seed,
      commitment(seed),
      BEACON_SOURCE,
      round,
      beacon,
      at.toISOString(),
      tickets.join('\n'),
      drawn.tickets_digest,
      s.winners,
      drawn.winners.join('\n'),
      drawnAt,
    ],
  );
}

/** With ADMIN_PHONE set, a demo staff login left from an earlier start that still has the published password is named. */
async function warnAboutDemoStaff(db: Db, log: Logger): Promise<void> {
  const row = await db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE phone = $1 AND is_staff AND is_active', [
    DEMO_STAFF.phone,
  ]);
  if (row && (await verifyPassword(DEMO_STAFF.password, row.password_hash)))
    log.warn(
      { phone: DEMO_STAFF.phone },
      'the demo staff login from an earlier start still has the published password: deactivate it or change its password',
    );
}
