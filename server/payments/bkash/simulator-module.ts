/**
 * Where the bKash simulator comes from (docs/rules/bkash.md#6-the-simulator): it is a development tool, kept in
 * scripts/bkash-simulator/ and never in the server's bundle (docs/decisions/063-where-the-weight-is.md). Run from the
 * sources (tsx, jest) it is imported from there; the built server imports the bundle the build writes beside its own,
 * dist/dev/bkash-simulator.js. The specifier is a variable so that bundling does not pull the simulator in.
 */
export type SimulatorModule = typeof import('../../../scripts/bkash-simulator/simulator.ts');

/** The simulator's module, loaded only where it runs: outside production, in BKASH_MODE=simulator (server/app.ts). */
export function loadSimulator(): Promise<SimulatorModule> {
  const fromSources = import.meta.url.endsWith('.ts');
  const specifier = fromSources ? '../../../scripts/bkash-simulator/simulator.ts' : SIMULATOR_BUNDLE;
  return import(specifier) as Promise<SimulatorModule>;
}

/** The simulator's bundle relative to the server's own (dist/server/ → dist/dev/; scripts/build.ts writes it). */
const SIMULATOR_BUNDLE = '../dev/bkash-simulator.js';
