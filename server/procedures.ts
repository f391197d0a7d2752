/**
 * Every procedure (Db.run) the embedded database's thread may run, by name: the thread imports this file, and runs a
 * procedure the app asks for by its name (docs/decisions/099-writes-run-on-the-database-thread.md). A procedure not
 * listed here is refused by the thread, so tests of its endpoint on the embedded database fail until it is.
 */
import type { Procedure } from './db/types.ts';
import { activateTx } from './generated-tickets/service.ts';
import { reserveTx } from './messages/queries.ts';
import { settleTrxIdTx } from './payments/service.ts';
import { approveTx, proposeTx } from './purchases/approvals.ts';
import { purchaseTx, setTrxIdTx } from './purchases/service.ts';

const all: Procedure<never, unknown>[] = [purchaseTx, setTrxIdTx, settleTrxIdTx, proposeTx, approveTx, reserveTx, activateTx];

export const procedures: ReadonlyMap<string, Procedure<never, unknown>> = new Map(all.map((p) => [p.name, p]));
if (procedures.size !== all.length) throw new Error('server/procedures.ts: two procedures share a name');
