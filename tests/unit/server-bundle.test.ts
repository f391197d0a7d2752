/**
 * The production server's bundle (scripts/build-config.ts, serverOptions) carries none of the bKash simulator, a
 * development tool (docs/rules/bkash.md#6-the-simulator); the simulator's own bundle (simulatorOptions) carries it.
 */
import * as esbuild from 'esbuild';
import { serverOptions, simulatorOptions } from '../../scripts/build-config.ts';

const inputsOf = async (o: esbuild.BuildOptions) =>
  Object.keys((await esbuild.build({ ...o, write: false, metafile: true, sourcemap: false, logLevel: 'silent' })).metafile.inputs);

test('the server bundle has no file of scripts/bkash-simulator/, the simulator bundle has them', async () => {
  const server = await inputsOf(serverOptions);
  expect(server).toContain('server/payments/bkash/client.ts');
  expect(server).toContain('server/payments/bkash/simulator-module.ts');
  expect(server.filter((f) => f.startsWith('scripts/'))).toEqual([]);

  const simulator = await inputsOf(simulatorOptions);
  expect(simulator).toEqual(
    expect.arrayContaining([
      'scripts/bkash-simulator/simulator.ts',
      'scripts/bkash-simulator/checkout-page.ts',
      'scripts/bkash-simulator/send-money-page.ts',
    ]),
  );
}, 120_000);
