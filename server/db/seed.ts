import { randomBytes } from 'node:crypto';
import type { Accounts } from '../accounts/service.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Logger } from '../log.ts';
import { nextSaturdayDraw } from '../../shared/dates.ts';
import { formatTicket, randomTicket } from '../../shared/ticket.ts';
import { splitPrize } from '../../shared/money.ts';
import type { Db } from './index.ts';

/** The demo staff login printed at start on the embedded default (SEED_DEMO without ADMIN_PHONE). */
export const DEMO_STAFF = { phone: '01900000000', password: 'bhagya-demo-2026' } as const;

const WEEK = 7 * 24 * 3600 * 1000;

type Sample = {
  name: string;
  description: string;
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
    description: 'The weekly jackpot: match all six numbers to share the grand prize.',
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
    weeks: -1,
    price: 100,
    prize: 600_000,
    winners: 2,
    tickets: 10_000,
    featured: false,
  },
  {
    name: 'Autumn Jackpot',
    description: 'A drawn jackpot.',
    weeks: -2,
    price: 100,
    prize: 1_500_000,
    winners: 3,
    tickets: 10_000,
    featured: false,
  },
];

/** Sample lotteries and results on an empty database, so a fresh start shows a working product. */
export async function seedDemo(db: Db, accounts: Accounts, log: Logger): Promise<void> {
  const staff = await db.one('SELECT id FROM users WHERE phone = $1', [DEMO_STAFF.phone]);
  if (!staff) {
    await accounts.ensureSuperuser(DEMO_STAFF.phone, DEMO_STAFF.password);
    await db.query(`UPDATE users SET name = 'Demo Staff' WHERE phone = $1`, [DEMO_STAFF.phone]);
  }
  const any = await db.one('SELECT id FROM lotteries LIMIT 1');
  if (any) return;

  const now = Date.now();
  await db.tx(async (tx) => {
    for (const s of OPEN) {
      const end = nextSaturdayDraw(now + s.weeks * WEEK);
      const start = new Date(now - 2 * 24 * 3600 * 1000).toISOString();
      await tx.query(
        `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, $9)`,
        [s.name, s.description, start, end, s.price, s.tickets, s.winners, s.prize, s.featured],
      );
    }
    // Players who bought the winning tickets of the drawn samples; nobody knows their passwords.
    const players: number[] = [];
    for (const [i, name] of ['Rahim Uddin', 'Fatema Begum', 'Karim Hossain'].entries()) {
      const row = await tx.one<{ id: number }>(
        `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed) VALUES ($1, $2, $3, true, true) RETURNING id`,
        [name, `0171100000${i}`, await hashPassword(randomBytes(18).toString('base64'))],
      );
      if (row) players.push(row.id);
    }
    for (const s of DRAWN) {
      const end = nextSaturdayDraw(now + s.weeks * WEEK - WEEK);
      const start = new Date(Date.parse(end) - 10 * 24 * 3600 * 1000).toISOString();
      const l = await tx.one<{ id: number }>(
        `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, is_result_published, drawn_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, false, true, $4) RETURNING id`,
        [s.name, s.description, start, end, s.price, s.tickets, s.winners, s.prize],
      );
      if (!l) continue;
      const { each } = splitPrize(s.prize, s.winners);
      const sold = new Set<string>();
      while (sold.size < s.winners) sold.add(formatTicket(randomTicket()));
      for (const [i, ticket] of [...sold].entries()) {
        const userId = players[i % players.length] as number;
        const t = await tx.one<{ id: number }>(
          `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status, created_at) VALUES ($1, $2, $3, $4, 'bkash', 'success', $5) RETURNING id`,
          [userId, l.id, ticket, s.price, start],
        );
        if (t)
          await tx.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4)', [
            l.id,
            t.id,
            ticket,
            each,
          ]);
      }
    }
  });
  log.info('demo lotteries and results seeded');
}
