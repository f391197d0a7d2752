import { BkashError, type BkashClientOptions } from '../../server/payments/bkash/client.ts';
import { startSimulator, type BkashSimulator, type SimulatorOptions } from '../../scripts/bkash-simulator/simulator.ts';

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

/** The credentials the client tests' simulator is started with and their clients use. */
export const SIM_CREDS = { appKey: 'sim-app-key', appSecret: 'sim-app-secret-XYZ', username: 'sim-user', password: 'sim-pass-Q7' };

/**
 * A test file's bKash simulator over HTTP (startSimulator) and the clients it makes against it: `make` builds one (our
 * tokenized or payout client) with short timeouts and no repeats unless told. Each test ends with its clients closed,
 * the simulator reset and its clock (`now`, which a test may move) back at the real time.
 */
export function simulatorForClients<C extends { close(): Promise<void> }>(
  make: (o: BkashClientOptions) => C,
  opts: Partial<SimulatorOptions> = {},
) {
  const clients: C[] = [];
  let stop: () => Promise<void> = async () => undefined;
  const bk = {
    now: Date.now(),
    sim: undefined as unknown as BkashSimulator,
    baseUrl: '',
    client(o: Partial<BkashClientOptions> = {}): C {
      const c = make({ baseUrl: bk.baseUrl, ...SIM_CREDS, timeoutMs: 2000, retries: 0, retryDelayMs: 10, ...o });
      clients.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    const s = await startSimulator({ ...SIM_CREDS, now: () => bk.now, ...opts });
    ({ sim: bk.sim, baseUrl: bk.baseUrl, close: stop } = s);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    bk.sim.reset();
    bk.now = Date.now();
  });
  afterAll(() => stop());
  return bk;
}
