import { BkashError } from '../../server/payments/bkash/client.ts';

/** The BkashError a promise is rejected with (tests of our bKash clients); any other outcome fails the test. */
export async function bkashFailure(p: Promise<unknown>): Promise<BkashError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof BkashError) return err;
    throw err;
  }
  throw new Error('expected a BkashError');
}
