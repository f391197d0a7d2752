/**
 * The items of one turn of the event loop, handed over together at its end: between the app and the embedded
 * database's thread every message wakes the thread that receives it, so the requests of a turn go as one message and
 * the replies of a turn as one (docs/decisions/071-embedded-database-thread.md). An item waits at most the rest of
 * its turn; and when a turn runs long (a dozen pages rendered, a batch of writes run) its items go as soon as the
 * first has waited `sliceMs`, so that the other thread works on them meanwhile rather than wait for the turn's end
 * (docs/decisions/101-batches-sent-in-slices.md).
 */
export const SLICE_MS = 1;

export function batched<T>(
  send: (items: T[]) => void,
  { sliceMs = SLICE_MS, now = () => performance.now() }: { sliceMs?: number; now?: () => number } = {},
): (item: T) => void {
  let items: T[] = [];
  let since = 0;
  const flush = () => {
    if (items.length === 0) return;
    const batch = items;
    items = [];
    send(batch);
  };
  return (item) => {
    if (items.push(item) === 1) {
      since = now();
      setImmediate(flush);
    } else if (now() - since >= sliceMs) flush();
  };
}
