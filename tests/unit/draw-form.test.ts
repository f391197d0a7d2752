import { chosenTickets, DrawForm, drawFormInput, DrawWinners } from '../../shared/draws/draw-form.ts';
import { MAX_DRAW_TICKETS } from '../../shared/draws/schemas.ts';

// The draw page's one form (docs/decisions/065-draw-form-one-schema.md): a union discriminated by `intent`, each
// intent with its own fields.
const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const SIGNATURE = 'ab'.repeat(48);

const parse = (input: Record<string, unknown>) => DrawForm.safeParse(input, { reportInput: true });
/** The fields a refused input is refused for, with their messages. */
function refused(input: Record<string, unknown>): Record<string, string> {
  const r = parse(input);
  expect(r.success).toBe(false);
  return Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('DrawForm: each intent with its own fields', () => {
  test('withholding: a prize (its id) or a proposal (its id), and the reason, trimmed', () => {
    expect(parse({ intent: 'withhold-prize', prize_id: '12', reason: ' Fraud ', _csrf: 'x' }).data).toEqual({
      intent: 'withhold-prize',
      prize_id: '12',
      reason: 'Fraud',
    });
    for (const intent of ['withhold-approve', 'withhold-reject'])
      expect(parse({ intent, proposal_id: '3', reason: 'Bank letter' }).data).toEqual({ intent, proposal_id: '3', reason: 'Bank letter' });
  });

  test('the beacon: the pasted signature, trimmed; the verifiable draw: nothing', () => {
    expect(parse({ intent: 'beacon', beacon: ` ${SIGNATURE}\n` }).data).toEqual({ intent: 'beacon', beacon: SIGNATURE });
    expect(parse({ intent: 'verifiable-draw', chosen: [T1] }).data).toEqual({ intent: 'verifiable-draw' });
  });

  test('winners by hand: approve and reject a proposal by its id', () => {
    for (const intent of ['approve', 'reject']) expect(parse({ intent, proposal_id: '7' }).data).toEqual({ intent, proposal_id: '7' });
  });

  test('the selection: clear, remove, add (the ticket canonical, the winners), propose with a reason', () => {
    expect(parse({ intent: 'clear', chosen: [T1] }).data).toEqual({ intent: 'clear' });
    expect(parse({ intent: 'remove', remove: T1, chosen: [T1, T2] }).data).toEqual({ intent: 'remove', remove: T1, chosen: [T1, T2] });
    expect(parse({ intent: 'add', ticket: ' 5-12-23-34-45-7 ', chosen: [T2], winners: '2' }).data).toEqual({
      intent: 'add',
      ticket: T1,
      chosen: [T2],
      winners: 2,
    });
    // Bengali digits are the same ticket.
    expect(parse({ intent: 'add', ticket: '০৫-১২-২৩-৩৪-৪৫-০৭', chosen: [] }).data).toMatchObject({ ticket: T1, winners: MAX_DRAW_TICKETS });
    expect(parse({ intent: 'propose', reason: ' By hand ', chosen: [T1] }).data).toEqual({
      intent: 'propose',
      reason: 'By hand',
      chosen: [T1],
    });
  });
});

describe('DrawForm: each bad field is refused under its name', () => {
  test('a prize or proposal id that is none', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '1234567890123456', ''])
      expect(refused({ intent: 'withhold-prize', prize_id: bad, reason: 'Fraud' })).toHaveProperty('prize_id');
    expect(refused({ intent: 'withhold-prize', reason: 'Fraud' })).toHaveProperty('prize_id');
    expect(refused({ intent: 'withhold-approve', proposal_id: 'x', reason: 'Fraud' })).toHaveProperty('proposal_id');
    expect(refused({ intent: 'withhold-reject', reason: 'Fraud' })).toHaveProperty('proposal_id');
    expect(refused({ intent: 'approve', proposal_id: '0' })).toHaveProperty('proposal_id');
    expect(refused({ intent: 'reject' })).toHaveProperty('proposal_id');
  });

  test("a withholding's reason: blank, too long, hidden characters, missing", () => {
    expect(refused({ intent: 'withhold-prize', prize_id: '1', reason: '  ' })).toEqual({ reason: 'validation:reasonRequired' });
    expect(refused({ intent: 'withhold-approve', proposal_id: '1', reason: 'x'.repeat(501) })).toHaveProperty('reason');
    expect(refused({ intent: 'withhold-reject', proposal_id: '1', reason: 'a\u0000b' })).toEqual({
      reason: 'validation:controlCharacters',
    });
    expect(refused({ intent: 'withhold-prize', prize_id: '1' })).toHaveProperty('reason');
  });

  test('the beacon: empty or missing (paste the signature), longer than the field', () => {
    expect(refused({ intent: 'beacon', beacon: '  ' })).toEqual({ beacon: 'validation:beaconSignatureRequired' });
    expect(refused({ intent: 'beacon' })).toHaveProperty('beacon');
    expect(refused({ intent: 'beacon', beacon: 'a'.repeat(201) })).toHaveProperty('beacon');
  });

  test('the selection: a ticket that is none, a number of winners that is none, a removal without its ticket', () => {
    for (const bad of ['1-2-3', '', '05-05-23-34-45-07', 'x'.repeat(41)])
      expect(refused({ intent: 'add', ticket: bad, chosen: [] })).toHaveProperty('ticket');
    expect(refused({ intent: 'add', chosen: [] })).toHaveProperty('ticket');
    for (const bad of ['0', '-2', 'two', '1.5', ''])
      expect(refused({ intent: 'add', ticket: T1, chosen: [], winners: bad })).toHaveProperty('winners');
    expect(refused({ intent: 'remove', chosen: [T1] })).toHaveProperty('remove');
    expect(refused({ intent: 'propose', reason: '', chosen: [T1] })).toEqual({ reason: 'validation:reasonRequired' });
    expect(refused({ intent: 'propose', chosen: [T1] })).toHaveProperty('reason');
  });

  test('an unknown intent, none, or one that is not a text: refused under `intent`', () => {
    for (const input of [{ intent: 'random', chosen: [T1] }, { intent: 'notify' }, {}, { intent: 5 }, { intent: 'ADD', ticket: T1 }])
      expect(Object.keys(refused(input))).toEqual(['intent']);
  });
});

describe('chosenTickets and DrawWinners', () => {
  test('the chosen tickets: canonical, each once, at most as many as a draw takes; others left out', () => {
    expect(chosenTickets(['5-12-23-34-45-7', T1, 'nope', 7, T2])).toEqual([T1, T2]);
    const two = (n: number) => String(n).padStart(2, '0');
    const many: string[] = [];
    for (let d = 4; d <= 55 && many.length <= MAX_DRAW_TICKETS; d++)
      for (let e = d + 1; e <= 55; e++) many.push(`01-02-03-${two(d)}-${two(e)}-01`);
    expect(many.length).toBeGreaterThan(MAX_DRAW_TICKETS);
    expect(chosenTickets(many)).toEqual(many.slice(0, MAX_DRAW_TICKETS));
  });

  test('winners: as the form says, at most a draw’s worth; absent: a draw’s worth', () => {
    expect(DrawWinners.parse('3')).toBe(3);
    expect(DrawWinners.parse(undefined)).toBe(MAX_DRAW_TICKETS);
    expect(DrawWinners.parse('5000')).toBe(MAX_DRAW_TICKETS);
  });
});

describe('drawFormInput', () => {
  test('each field once (its first value), every chosen ticket, files left out', () => {
    const form = new FormData();
    form.append('intent', 'add');
    form.append('intent', 'propose');
    form.append('ticket', T1);
    form.append('chosen', T2);
    form.append('chosen', T1);
    form.append('picture', new Blob(['x']), 'x.png');
    expect({ ...drawFormInput(form) }).toEqual({ intent: 'add', ticket: T1, chosen: [T2, T1] });
  });

  test('a Remove button posts no intent: its intent is remove; a posted intent stays', () => {
    const form = new FormData();
    form.append('remove', T1);
    form.append('chosen', T1);
    expect(parse(drawFormInput(form)).data).toEqual({ intent: 'remove', remove: T1, chosen: [T1] });
    form.append('intent', 'clear');
    expect(parse(drawFormInput(form)).data).toEqual({ intent: 'clear' });
    expect({ ...drawFormInput(new FormData()) }).toEqual({ chosen: [] });
  });

  test('a field named like an object property is an ordinary field', () => {
    const form = new FormData();
    form.append('__proto__', 'x');
    form.append('intent', 'clear');
    expect(parse(drawFormInput(form)).data).toEqual({ intent: 'clear' });
  });
});
