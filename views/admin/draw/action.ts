/**
 * The draw page's action (docs/rules/lotteries-and-sales.md#9-the-draw, docs/decisions/065-draw-form-one-schema.md):
 * the post read through `DrawForm`, one branch per intent, each with its own fields; then a switch over the parsed
 * intent. A post that cannot be read gets the page with the reason, in the caller's language, and changes nothing.
 */
import { data, redirect, type ActionFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText, fieldErrors } from '../../../shared/api-types.ts';
import { api as contract } from '../../../shared/api/contract.ts';
import { chosenTickets, DrawForm, drawFormInput, DrawWinners } from '../../../shared/draws/draw-form.ts';
import { REASON_MAX } from '../../../shared/draws/schemas.ts';
import { problemsByField, type Problem } from '../../../shared/fields.ts';
import { apiOf } from '../../context.ts';
import { idOf, pageStatus, refuse, refused, type FormReply } from '../../components/action.ts';
import { key } from '../../components/messages.ts';
import { parsePage } from '../../lotteries/paging.ts';
import { drawHref, type NoticeKind, type Result } from './page.ts';

const said = (p: Problem) => key(p.key, p.vars);

/** A form that could not be read (no intent, an unknown one, a field the page itself writes gone wrong). */
const unreadable = (chosen: string[]): FormReply<Result> =>
  data<Result>({ chosen, unreadable: true, formError: key('admin:draw.unreadable') }, { status: 400 });

/**
 * Why `DrawForm` refused a post, shown where today's page shows it: a prize or proposal that is none (404), a reason
 * under its field (the withholding's confirmation stays open), a typed ticket under its box, a beacon in its section;
 * anything else the form itself cannot have sent is unreadable.
 */
function refusedForm(input: Record<string, unknown>, error: z.ZodError): FormReply<Result> {
  const chosen = chosenTickets(Array.isArray(input.chosen) ? input.chosen : []);
  const problems = problemsByField(error);
  const first = (field: string): Problem | undefined => problems[field]?.[0];
  const raw = (field: string): string => (typeof input[field] === 'string' ? input[field] : '');
  const intent = raw('intent');
  const [idProblem, reason, ticket, beacon] = [
    first('prize_id') ?? first('proposal_id'),
    first('reason'),
    first('ticket'),
    first('beacon'),
  ];
  const others = Object.keys(problems).filter((f) => !['prize_id', 'proposal_id', 'reason', 'ticket', 'beacon'].includes(f));
  if (others.length) return unreadable(chosen);
  if (idProblem) {
    if (intent === 'withhold-prize') return refuse(key('admin:draw.prizeNotFound'), 404, { chosen });
    return refuse(key('admin:draw.proposal.notFound'), 404, {
      chosen,
      ...(intent === 'approve' || intent === 'reject' ? { proposal: true } : {}),
    });
  }
  if (reason && intent === 'propose') {
    const values = { reason: raw('reason').slice(0, REASON_MAX * 2) };
    if (!chosen.length) return refuse(key('admin:draw.noneChosen'), 400, { chosen, values });
    // As the API's refusal of the reason shows: under the field, the form's message above the tickets.
    const errors = { reason: said(reason) };
    return data<Result>({ chosen, values, errors, formError: key('admin:draw.finishFailed'), formErrors: [] }, { status: 400 });
  }
  if (reason) return data<Result>({ chosen, values: { reason: raw('reason').trim() }, errors: { reason: said(reason) } }, { status: 400 });
  if (ticket) {
    // A full selection is told first, as for a good ticket (the Add button is disabled then anyway).
    const winners = DrawWinners.safeParse(input.winners);
    if (winners.success && chosen.length >= winners.data) return refuse(key('admin:draw.full', { count: winners.data }), 400, { chosen });
    const typed = raw('ticket').trim().slice(0, 40);
    return data<Result>({ chosen, values: { ticket: typed }, errors: { ticket: key('admin:draw.invalidTicket') } }, { status: 400 });
  }
  if (beacon) return data<Result>({ chosen, verifiable: true, formError: said(beacon) }, { status: 400 });
  return unreadable(chosen);
}

/** For the `never` check: a parsed intent the switch does not handle does not compile. */
function unhandled(form: never): never {
  throw new Error(`draw form: unhandled intent ${JSON.stringify(form)}`);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = idOf(params.id);
  if (!id) return refuse(key('admin:draw.notFound'), 404, { chosen: [] });
  const input = drawFormInput(await request.formData());
  const parsed = DrawForm.safeParse(input, { reportInput: true });
  if (!parsed.success) return refusedForm(input, parsed.error);
  const f = parsed.data;
  const api = apiOf(context);
  const url = new URL(request.url);
  const back = { search: (url.searchParams.get('search') ?? '').trim().slice(0, 100), page: parsePage(url.searchParams.get('page')) };
  const done = (notice: NoticeKind) => redirect(drawHref(id, { ...back, notice }), 303);
  // The selection's tickets, for the intents whose form carries them (every other form is a form of its own).
  const chosen = 'chosen' in f ? f.chosen : [];

  switch (f.intent) {
    case 'withhold-prize':
    case 'withhold-approve':
    case 'withhold-reject': {
      const body = { reason: f.reason };
      const r =
        f.intent === 'withhold-prize'
          ? await api.call(contract.proposeWithholding, { params: { prizeId: f.prize_id }, body })
          : f.intent === 'withhold-approve'
            ? await api.call(contract.approveWithholding, { params: { proposalId: f.proposal_id }, body })
            : await api.call(contract.rejectWithholding, { params: { proposalId: f.proposal_id }, body });
      if (r.ok)
        return done(f.intent === 'withhold-prize' ? 'withholdProposed' : f.intent === 'withhold-approve' ? 'withheld' : 'withholdRejected');
      // The API's message for the reason shows under the field, the confirmation still open.
      return refused(r, { fields: ['reason'], failed: 'admin:draw.withholdFailed', values: body, extra: { chosen } });
    }
    case 'beacon': {
      // What staff paste: drand's signature of the round (96 hex characters), which the server checks against drand's
      // key (docs/rules/draws.md#4-the-beacon); a value alone is no beacon (decision 046).
      const r = await api.call(contract.setDrawBeacon, { params: { id }, body: { signature: f.beacon } });
      if (r.ok) return done('beacon');
      return refused(r, { fields: [], both: true, failed: 'admin:draw.verifiable.failed', extra: { chosen, verifiable: true } });
    }
    case 'verifiable-draw': {
      const r = await api.call(contract.verifiableDraw, { params: { id } });
      if (r.ok) return done('drawn');
      return refused(r, { fields: [], failed: 'admin:draw.verifiable.failed', extra: { chosen, verifiable: true } });
    }
    case 'approve':
    case 'reject': {
      const r =
        f.intent === 'approve'
          ? await api.call(contract.approveDrawProposal, { params: { proposalId: f.proposal_id } })
          : await api.call(contract.rejectDrawProposal, { params: { proposalId: f.proposal_id } });
      if (r.ok) return done(f.intent === 'approve' ? 'drawn' : 'rejected');
      return refused(r, { fields: [], failed: 'admin:draw.proposal.failed', extra: { chosen, proposal: true } });
    }
    case 'clear':
      return { chosen: [] } satisfies Result;
    case 'remove':
      return { chosen: chosen.filter((x) => x !== f.remove) } satisfies Result;
    case 'add': {
      if (chosen.length >= f.winners) return refuse(key('admin:draw.full', { count: f.winners }), 400, { chosen });
      if (chosen.includes(f.ticket)) {
        const typed = typeof input.ticket === 'string' ? input.ticket.trim().slice(0, 40) : '';
        return data<Result>({ chosen, values: { ticket: typed }, errors: { ticket: key('admin:draw.alreadyChosen') } }, { status: 400 });
      }
      return { chosen: [...chosen, f.ticket] } satisfies Result;
    }
    case 'propose': {
      const values = { reason: typeof input.reason === 'string' ? input.reason.slice(0, REASON_MAX * 2) : '' };
      if (!chosen.length) return refuse(key('admin:draw.noneChosen'), 400, { chosen, values });
      const r = await api.call(contract.drawLottery, { body: { lottery_id: id, tickets: chosen, reason: f.reason } });
      if (r.ok) return done('proposed');
      // The reason's own message shows under its field; the tickets' messages in the list above.
      const { reason: reasonError, ...fe } = fieldErrors(r.error);
      const messages = Object.values(fe).filter(Boolean);
      return data<Result>(
        {
          chosen,
          values,
          ...(reasonError ? { errors: { reason: reasonError } } : {}),
          formError: key('admin:draw.finishFailed'),
          formErrors: messages.length || reasonError ? messages : [errorText(r.error, '')],
        },
        { status: pageStatus(r.status) },
      );
    }
    default:
      return unhandled(f);
  }
}
