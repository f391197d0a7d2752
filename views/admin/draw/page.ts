/**
 * What the draw page's parts share (views/admin/draw.tsx, docs/rules/lotteries-and-sales.md#9-the-draw): the shapes
 * of its data, what an action hands back, and the page's own address.
 */
import type { z } from 'zod';
import type { DrawProofReply } from '../../../shared/draws/proof.ts';
import type { DrawProposal, Participant, Prize } from '../../../shared/draws/schemas.ts';
import type { WithholdingProposal } from '../../../shared/draws/withholding.ts';
import type { StaffLottery } from '../../../shared/lotteries/schemas.ts';
import { adminPaths } from '../../../shared/paths.ts';
import type { FormResult } from '../../components/form.tsx';

export type Lottery = z.output<typeof StaffLottery>;
export type Row = z.output<typeof Participant>;
export type PrizeRow = z.output<typeof Prize>;
export type Proposal = z.output<typeof DrawProposal>;
export type Withholding = z.output<typeof WithholdingProposal>;
export type DrawProof = z.input<typeof DrawProofReply>;
/**
 * What a post of the page hands back: the chosen tickets (they travel in the form), and what went wrong (a typed
 * ticket under `ticket`; a refused withholding's reason under `reason`, the confirmation staying open; `verifiable`,
 * `proposal`: the refusal belongs to that section; `unreadable`: the form itself could not be read, shown at the top).
 */
export type Result = FormResult & {
  chosen: string[];
  formErrors?: string[];
  verifiable?: boolean;
  proposal?: boolean;
  unreadable?: boolean;
};

export const NOTICES = ['drawn', 'withholdProposed', 'withheld', 'withholdRejected', 'beacon', 'proposed', 'rejected'] as const;
export type NoticeKind = (typeof NOTICES)[number];

/** The page's own address with its search and page (`withhold` opens the confirmation of a prize's withholding). */
export function drawHref(
  id: string | number,
  o: { search?: string; page?: number; del?: number | null; notice?: NoticeKind } = {},
): string {
  const q = new URLSearchParams();
  if (o.search) q.set('search', o.search);
  if (o.page && o.page > 1) q.set('page', String(o.page));
  if (o.del) q.set('withhold', String(o.del));
  if (o.notice) q.set('notice', o.notice);
  const s = q.toString();
  return s ? `${adminPaths.drawLottery(id)}?${s}` : adminPaths.drawLottery(id);
}
