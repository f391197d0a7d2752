/** Asks `ok` every `everyMs` until it holds; throws once `ms` have passed without it holding. */
export async function until(ok: () => boolean | Promise<boolean>, ms = 3000, everyMs = 10): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits for `p` to settle: the error it was rejected with, or null when it resolved. */
export const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (err: unknown) => err,
  );
