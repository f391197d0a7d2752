/**
 * The items of one turn of the event loop, handed over together at its end: between the app and the embedded
 * database's thread every message wakes the thread that receives it, so the requests of a turn go as one message and
 * the replies of a turn as one (docs/decisions/071-embedded-database-thread.md). An item waits at most the rest of
 * its turn.
 */
export function batched<T>(send: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  return (item) => {
    if (items.push(item) > 1) return;
    setImmediate(() => {
      const batch = items;
      items = [];
      send(batch);
    });
  };
}
