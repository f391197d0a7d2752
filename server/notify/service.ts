/**
 * The SMS and e-mails sent, as staff see them, and their delivery reports (docs/rules/messages.md#7-sms-gateways):
 * where a gateway offers a report (Alpha SMS), each SMS it accepted is asked about once a minute for two days, until
 * the report says delivered or failed.
 */
import type { z } from 'zod';
import type { Delivery, DeliveriesQuery } from '../../shared/notify/schemas.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { repeat, type Stop } from '../repeat.ts';
import type { SmsGateway } from './gateways/types.ts';
import * as q from './queries.ts';

/** How often each instance asks for delivery reports. */
export const REPORT_EVERY_MS = 60_000;

export class Deliveries {
  private readonly reporting: Map<string, SmsGateway>;

  private readonly d: { db: Db; log: Logger; gateways: SmsGateway[]; timeoutMs: number };
  constructor(d: { db: Db; log: Logger; gateways: SmsGateway[]; timeoutMs: number }) {
    this.d = d;
    this.reporting = new Map(d.gateways.filter((g) => g.report).map((g) => [g.name, g]));
  }

  /** `GET /api/v1/admin/deliveries/` (staff). */
  async list(query: z.output<typeof DeliveriesQuery>): Promise<{ items: z.input<typeof Delivery>[]; total: number }> {
    const { rows, total } = await q.deliveries(this.d.db, { state: query.state ?? null, to: query.to ?? null }, query.limit, query.offset);
    return { items: rows, total };
  }

  /** One round of delivery reports: up to `limit` SMS asked about; answers how many changed state. */
  async checkReports(limit = 50): Promise<number> {
    if (this.reporting.size === 0) return 0;
    const due = await q.dueReports(this.d.db, [...this.reporting.keys()], limit);
    let changed = 0;
    for (const r of due) {
      const gateway = this.reporting.get(r.gateway);
      const state = await gateway?.report?.(r.gateway_ref, this.d.timeoutMs);
      if (state) {
        await q.reported(this.d.db, r.id, state);
        changed += 1;
      }
    }
    if (changed) this.d.log.info({ notify: 'live', reports: changed }, 'delivery reports');
    return changed;
  }
}

/** The delivery reports of this instance every REPORT_EVERY_MS (server/jobs.ts); a failed run is logged. */
export const scheduleReports = (deliveries: Deliveries, log: Logger): Stop =>
  repeat({ run: () => deliveries.checkReports(), everyMs: REPORT_EVERY_MS, log, failed: 'asking for delivery reports failed' });
