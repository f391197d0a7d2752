/**
 * A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements, docs/decisions/079-bkash-agreements.md):
 * the player approves an agreement once on bKash's page (wallet, code, PIN); his later payments are made with it and
 * his PIN only. bKash's callback makes the agreement once however often it arrives; the player forgets it on his
 * profile, which cancels it at bKash first.
 */
import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import { maskWallet, type AgreementCallbackBody, type AgreementCallbackReply, type MyAgreement } from '../../shared/payments/agreements.ts';
import { paths } from '../../shared/paths.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { throttle, type Limit } from '../http/rate-limit.ts';
import type { Logger } from '../log.ts';
import { refuseStaffPlay } from '../play-safe/staff.ts';
import { purchaseOfPlayer } from '../purchases/service.ts';
import * as aq from './agreement-queries.ts';
import { BkashError, type BkashAgreement } from './bkash/client.ts';
import { warnOfBkash } from './service.ts';

/** What agreements need of bKash (server/payments/bkash/client.ts BkashClient). */
export interface AgreementGateway {
  createAgreement(p: { payerReference: string; callbackURL: string }): Promise<{ paymentID: string; bkashURL: string }>;
  executeAgreement(paymentID: string): Promise<BkashAgreement>;
  cancelAgreement(agreementID: string): Promise<BkashAgreement>;
}

export type AgreementsDeps = {
  db: Db;
  gateway: AgreementGateway;
  log: Logger;
  /** PUBLIC_ORIGIN: where bKash sends the player back; without it, the origin the request came to. */
  publicOrigin?: string | undefined;
  /** Work after the answer (a replaced agreement cancelled at bKash). */
  defer: (task: () => Promise<void>) => void;
};

/** Approvals asked, and forgotten, per player (docs/rules/limits.md#1-rate-limits): as purchases. */
const AGREEMENT_LIMIT: Limit = { max: 10, windowSec: 60 };
/** Callbacks per address, as for payments. */
const CALLBACK_LIMIT: Limit = { max: 30, windowSec: 60 };

export class Agreements {
  private readonly d: AgreementsDeps;
  constructor(d: AgreementsDeps) {
    this.d = d;
  }

  /** The caller's agreement in force: the wallet masked, and since when. */
  async mine(caller: AccessClaims): Promise<z.input<typeof MyAgreement>> {
    const a = await aq.activeOf(this.d.db, caller.user_id);
    return a ? { wallet: maskWallet(a.wallet ?? ''), since: a.activated_at ?? a.created_at } : null;
  }

  /**
   * Asks bKash for an agreement the player approves on its page; with `transactionId`, his pending purchase to pay
   * with it afterwards. One in force at a time: he forgets it before he makes another.
   */
  async start(caller: AccessClaims, transactionId: number | undefined, origin: string): Promise<{ payment_id: string; bkash_url: string }> {
    refuseStaffPlay(caller);
    await throttle(this.d.db, [[`agreement:user:${caller.user_id}`, AGREEMENT_LIMIT]]);
    if (await aq.activeOf(this.d.db, caller.user_id)) refuse('agreement_exists');
    if (transactionId !== undefined) {
      const p = await purchaseOfPlayer(this.d.db, caller.user_id, transactionId);
      if (!p || p.tx.status !== 'pending') refuse('agreement_purchase_not_found');
    }
    let made: { paymentID: string; bkashURL: string };
    try {
      made = await this.d.gateway.createAgreement({
        payerReference: caller.phone ?? String(caller.user_id),
        callbackURL: `${this.d.publicOrigin ?? origin}${paths.bkashAgreementCallback}`,
      });
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { user: caller.user_id });
      refuse('agreement_bkash_unavailable');
    }
    await aq.insert(this.d.db, { userId: caller.user_id, paymentId: made.paymentID, transactionId: transactionId ?? null });
    return { payment_id: made.paymentID, bkash_url: made.bkashURL };
  }

  /**
   * bKash's callback after the approval, from anyone who has the paymentID: a success is executed by the one caller
   * that claims the approval (a duplicate finds it claimed and waits for nothing); a cancel or failure ends it (no
   * money hangs on an approval, so the callback's word is enough). A newer agreement replaces the player's older one,
   * which is cancelled at bKash after the commit. Only the player who asked is told the outcome.
   */
  async callback(
    body: z.output<typeof AgreementCallbackBody>,
    caller: { ip: string; user: AccessClaims | undefined },
  ): Promise<z.input<typeof AgreementCallbackReply>> {
    await throttle(this.d.db, [[`bkash-callback:ip:${caller.ip}`, CALLBACK_LIMIT]]);
    const known = await aq.byPayment(this.d.db, body.paymentID);
    if (!known) refuse('agreement_not_found');
    if (body.status !== 'success') await aq.fail(this.d.db, body.paymentID, ['created'], body.status);
    else if (await aq.claim(this.d.db, body.paymentID)) await this.execute(known);
    const now = (await aq.byPayment(this.d.db, body.paymentID)) ?? known;
    if (!caller.user || caller.user.user_id !== Number(known.user_id)) return { outcome: null, transaction_id: null, wallet: null };
    return {
      outcome: now.state === 'active' ? 'active' : now.state === 'failed' || now.state === 'cancelled' ? 'failed' : 'pending',
      transaction_id: now.transaction_id === null ? null : Number(now.transaction_id),
      wallet: now.wallet === null ? null : maskWallet(now.wallet),
    };
  }

  /**
   * Forgets the caller's agreement: cancelled at bKash (which answers a second cancel as done), then here, audited.
   * bKash not answering changes nothing.
   */
  async cancel(caller: AccessClaims): Promise<void> {
    await throttle(this.d.db, [[`agreement:user:${caller.user_id}`, AGREEMENT_LIMIT]]);
    const a = await aq.activeOf(this.d.db, caller.user_id);
    if (!a?.agreement_id) refuse('agreement_not_found');
    try {
      await this.d.gateway.cancelAgreement(a.agreement_id);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      // An agreement bKash does not know (2051) is no agreement: it is forgotten all the same.
      if (!(err.kind === 'refused' && err.code === '2051')) {
        this.warn(err, { user: caller.user_id });
        refuse('agreement_bkash_unavailable');
      }
    }
    await this.d.db.tx(async (tx) => {
      await aq.end(tx, Number(a.id), 'player');
      await recordAudit(tx, {
        actorId: caller.user_id,
        action: 'bkash_agreement.cancel',
        entity: 'user',
        entityId: String(caller.user_id),
        before: { agreement: a.id, wallet: maskWallet(a.wallet ?? '') },
        after: { agreement: a.id, state: 'cancelled', ended_by: 'player' },
      });
    });
  }

  /** The claimed approval executed at bKash: in force, replacing the player's older one; or failed, with why. */
  private async execute(a: aq.AgreementRow): Promise<void> {
    let made: BkashAgreement;
    try {
      made = await this.d.gateway.executeAgreement(a.payment_id);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { user: a.user_id });
      // Refused: no agreement. No answer: perhaps one bKash made that we do not know; no money hangs on it, and the
      // player approves again (docs/rules/bkash.md#7-agreements).
      await aq.fail(this.d.db, a.payment_id, ['executing'], err.kind === 'refused' ? `bkash_${err.code ?? 'refused'}` : 'no_answer');
      return;
    }
    if (made.agreementStatus !== 'Completed') {
      await aq.fail(this.d.db, a.payment_id, ['executing'], `bkash_${made.agreementStatus}`);
      return;
    }
    const replaced = await this.d.db.tx(async (tx) => {
      const older = await aq.activeForUpdate(tx, Number(a.user_id));
      if (older) await aq.end(tx, Number(older.id), 'replaced');
      await aq.activate(tx, a.payment_id, made.agreementID, made.customerMsisdn);
      await recordAudit(tx, {
        actorId: null,
        action: 'bkash_agreement.create',
        entity: 'user',
        entityId: String(a.user_id),
        before: older ? { agreement: older.id, wallet: maskWallet(older.wallet ?? '') } : null,
        after: { agreement: a.id, wallet: maskWallet(made.customerMsisdn ?? '') },
      });
      return older?.agreement_id ?? null;
    });
    if (replaced) this.d.defer(() => this.cancelReplaced(replaced));
  }

  /** A replaced agreement, cancelled at bKash after the commit; a failure is logged (it pays nothing any more here). */
  private async cancelReplaced(agreementId: string): Promise<void> {
    try {
      await this.d.gateway.cancelAgreement(agreementId);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, {});
    }
  }

  private warn(err: BkashError, about: Record<string, string | number>): void {
    warnOfBkash(this.d.log, err, about);
  }
}
