import type { z } from 'zod';
import { holdEnd } from '../../shared/claims/payout.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import type { CreateUserBody, StaffUser, StaffUsersQuery, UpdateUserBody } from '../../shared/users/schemas.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { endAllSessions, markAccessChanged } from '../accounts/service.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { uniqueViolation, type Db } from '../db/index.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type { Texts } from '../i18n.ts';
import { accessChanged, sendAccountChangeNotice, type AccountChange } from '../notify/account-change.ts';
import type { Notifier } from '../notify/index.ts';
import { recordAudit } from '../audit/record.ts';
import * as q from './queries.ts';

type Staff = z.input<typeof StaffUser>;
/** A change of an account's phone, e-mail or password, told to its old contacts once stored. */
type Notice = { before: Parameters<typeof sendAccountChangeNotice>[2]; change: AccountChange; at: string };

/** What the audit log keeps of an account: never a password or its hash. */
const snapshot = (u: q.ManagedUser) => ({
  name: u.name,
  email: u.email,
  phone: u.phone,
  is_active: u.is_active,
  is_staff: u.is_staff,
  is_superuser: u.is_superuser,
});

/**
 * Whether the account is an active superuser as the database has it now, not as the caller's token says: for the
 * superuser-only actions of every feature (docs/rules/accounts-and-codes.md#12-staff-and-superusers).
 */
export async function isSuperuserNow(db: Db, id: number): Promise<boolean> {
  const now = await q.rightsNow(db, id);
  return !!now?.is_active && now.is_superuser;
}

const taken = (field: 'email' | 'phone') => refusal(field === 'email' ? 'email_taken' : 'phone_taken');

/**
 * Staff manage accounts (docs/rules/accounts-and-codes.md#12-staff-and-superusers): list, read, create, change; every
 * change audited in the database transaction that makes it. Who may do what is read from the database, not the
 * caller's token: only a superuser creates staff or superusers, or changes another staff account.
 */
export class UserAdmin {
  private readonly db: Db;
  private readonly notifier: Notifier;
  private readonly texts: Texts;
  constructor(
    db: Db,
    notifier: Notifier,
    /** The app's texts, for the notice of a changed account in its holder's language. */
    texts: Texts,
  ) {
    this.db = db;
    this.notifier = notifier;
    this.texts = texts;
  }

  async list(query: z.output<typeof StaffUsersQuery>): Promise<{ items: Staff[]; total: number }> {
    const search = query.search;
    const { rows, total } = await q.staffUsers(
      this.db,
      { search, phone: search ? normalisePhone(search) : null, filter: query.filter },
      query.limit,
      query.offset,
    );
    return { items: rows, total };
  }

  async one(id: number): Promise<Staff> {
    const row = await q.staffUser(this.db, id);
    if (!row) refuse('user_not_found');
    return row;
  }

  /** The e-mail and phone must be nobody else's (sign-up's messages); the UNIQUE constraints settle a race. */
  private async refuseTaken(db: Db, email: string | null, phone: string | null, except: number | null): Promise<void> {
    const holders = await q.holders(db, email, phone, except);
    const [first, ...more] = [
      ...(email && holders.some((u) => u.email === email) ? [taken('email')] : []),
      ...(phone && holders.some((u) => u.phone === phone) ? [taken('phone')] : []),
    ];
    if (first) throw more.length ? refusal(first.refusal, { with: more }) : first;
  }

  private superuser(db: Db, staff: AccessClaims): Promise<boolean> {
    return isSuperuserNow(db, staff.user_id);
  }

  async create(staff: AccessClaims, body: z.output<typeof CreateUserBody>): Promise<Staff> {
    // A superuser is staff too: the right to create staff would mean nothing without the back office.
    const is_staff = body.is_staff || body.is_superuser;
    if (is_staff && !(await this.superuser(this.db, staff))) refuse('staff_superuser_only');
    await this.refuseTaken(this.db, body.email, body.phone, null);
    const hash = await hashPassword(body.password);
    try {
      const id = await this.db.tx(async (tx) => {
        const created = await q.insertManagedUser(tx, {
          name: body.name,
          email: body.email,
          phone: body.phone,
          hash,
          is_active: body.is_active,
          is_staff,
          is_superuser: body.is_superuser,
        });
        await recordAudit(tx, {
          actorId: staff.user_id,
          action: 'user.create',
          entity: 'user',
          entityId: String(created.id),
          before: null,
          after: snapshot(created),
        });
        return created.id;
      });
      return this.one(id);
    } catch (err) {
      const c = uniqueViolation(err);
      if (c !== null) throw taken(c.includes('email') ? 'email' : 'phone');
      throw err;
    }
  }

  /**
   * A change of some of name, e-mail, phone, password and the active flag; the same values again change nothing and
   * record nothing. Staff cannot deactivate themselves; another staff account is a superuser's to change. Only a
   * superuser changes a phone, an e-mail or a password: with them an account, and its prizes, change hands. Such a
   * change is recorded on the account (when, by whom), holds its claims and payouts for 72 hours, and is told to
   * every phone and e-mail the account had (docs/rules/accounts-and-codes.md#12-staff-and-superusers).
   */
  async update(staff: AccessClaims, id: number, patch: z.output<typeof UpdateUserBody>): Promise<Staff> {
    // Hashed before the row is locked: the hash takes a while on purpose (server/accounts/passwords.ts).
    const hash = patch.password ? await hashPassword(patch.password) : null;
    let notice: Notice | null;
    try {
      notice = await this.db.tx(async (tx): Promise<Notice | null> => {
        const cur = await q.userForUpdate(tx, id);
        if (!cur) refuse('user_not_found');
        const self = cur.id === staff.user_id;
        if (!self && (cur.is_staff || cur.is_superuser) && !(await this.superuser(tx, staff))) refuse('staff_accounts_superuser_only');
        if (self && patch.is_active === false) refuse('cannot_deactivate_self');
        const after: q.ManagedUser = {
          ...cur,
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.email !== undefined ? { email: patch.email } : {}),
          ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
          ...(patch.is_active !== undefined ? { is_active: patch.is_active } : {}),
        };
        const change: AccountChange = { phone: after.phone !== cur.phone, email: after.email !== cur.email, password: hash !== null };
        if (accessChanged(change) && !(await this.superuser(tx, staff))) refuse('access_superuser_only');
        if (!after.email && !after.phone) refuse('phone_or_email_needed');
        const changedEmail = after.email !== cur.email ? after.email : null;
        const changedPhone = after.phone !== cur.phone ? after.phone : null;
        if (changedEmail || changedPhone) await this.refuseTaken(tx, changedEmail, changedPhone, id);
        const before: Record<string, unknown> = {};
        const changed: Record<string, unknown> = {};
        const was = snapshot(cur);
        const now = snapshot(after);
        for (const k of Object.keys(now) as (keyof typeof now)[])
          if (was[k] !== now[k]) {
            before[k] = was[k];
            changed[k] = now[k];
          }
        if (!Object.keys(changed).length && hash === null) return null;
        await q.updateManagedUser(tx, after, hash);
        // A new password or a deactivation ends his sessions (his access token is refused at once: security.md#1).
        if (hash !== null || (cur.is_active && !after.is_active)) await endAllSessions(tx, id);
        if (hash !== null) changed.password_changed = true;
        let told: Notice | null = null;
        if (accessChanged(change)) {
          const at = await markAccessChanged(tx, id, staff.user_id);
          told = { before: { phone: cur.phone, email: cur.email, language: cur.language }, change, at };
          changed.held_until = holdEnd(at).toISOString();
        }
        await recordAudit(tx, {
          actorId: staff.user_id,
          action: 'user.update',
          entity: 'user',
          entityId: String(id),
          before,
          after: changed,
        });
        return told;
      });
    } catch (err) {
      const c = uniqueViolation(err);
      if (c !== null) throw taken(c.includes('email') ? 'email' : 'phone');
      throw err;
    }
    // Told after the change is stored, outside its transaction: a slow SMS gateway never holds the user's row.
    if (notice) await sendAccountChangeNotice(this.notifier, this.texts, notice.before, notice.change, { at: notice.at, byStaff: true });
    return this.one(id);
  }
}
