/**
 * The embedded database's messages (server/db/batch.ts): the items of one turn go together at its end, in the order
 * they were given; a turn that runs long sends what it has once the first item has waited a slice, and what follows
 * goes at the turn's end or at the next slice.
 */
import { batched } from '../../server/db/batch.ts';

const turnEnd = () => new Promise((r) => setImmediate(r));

function harness(sliceMs = 1) {
  const sent: number[][] = [];
  let clock = 0;
  const push = batched<number>((items) => sent.push(items), { sliceMs, now: () => clock });
  return { sent, push, pass: (ms: number) => (clock += ms) };
}

test('the items of a turn go as one batch at its end, in order', async () => {
  const { sent, push } = harness();
  push(1);
  push(2);
  push(3);
  expect(sent).toEqual([]);
  await turnEnd();
  expect(sent).toEqual([[1, 2, 3]]);
});

test('each turn sends its own batch, and a turn without items sends nothing', async () => {
  const { sent, push } = harness();
  push(1);
  await turnEnd();
  await turnEnd();
  push(2);
  push(3);
  await turnEnd();
  expect(sent).toEqual([[1], [2, 3]]);
});

test('a long turn sends what it has once the first item has waited a slice, the rest at its end', async () => {
  const { sent, push, pass } = harness(1);
  push(1);
  pass(0.4);
  push(2);
  expect(sent).toEqual([]);
  pass(0.6);
  push(3);
  expect(sent).toEqual([[1, 2, 3]]);
  pass(0.5);
  push(4);
  pass(0.2);
  push(5);
  expect(sent).toEqual([[1, 2, 3]]);
  await turnEnd();
  expect(sent).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
  await turnEnd();
  expect(sent).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
});

test('a slice counts from the first item of a batch, not from the turn', async () => {
  const { sent, push, pass } = harness(1);
  push(1);
  pass(5);
  push(2);
  expect(sent).toEqual([[1, 2]]);
  push(3);
  pass(0.9);
  push(4);
  expect(sent).toEqual([[1, 2]]);
  pass(0.1);
  push(5);
  expect(sent).toEqual([
    [1, 2],
    [3, 4, 5],
  ]);
  await turnEnd();
  expect(sent).toEqual([
    [1, 2],
    [3, 4, 5],
  ]);
});
