/**
 * `npm start`: builds when dist/ is not a production build of the sources as they are now (scripts/build-stamp.ts),
 * then runs the built server with
 *   NODE_ENV=production  for the libraries: React renders with its production build, not the development one;
 *   APP_ENV              the app's own mode, unchanged when set, else NODE_ENV's value as given, else development:
 *                        plain http://localhost without a SECRET_KEY, as the README promises. `APP_ENV=production`
 *                        (or `NODE_ENV=production npm start`) gives production's Secure cookies, HSTS and requirements.
 * Runs under Node 24's type stripping (`node scripts/start.ts`): plain TypeScript only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { buildState } from './build-stamp.ts';

/** The server's environment: NODE_ENV for libraries, APP_ENV for the app (see above). */
export function startEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, APP_ENV: env.APP_ENV || env.NODE_ENV || 'development', NODE_ENV: 'production' };
}

function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const state = buildState(root);
  if (!state.current) {
    console.log(`[start] building: ${state.reason}`);
    const built = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) {
      console.error(`[start] the build failed (${built.error?.message ?? `exit code ${built.status ?? built.signal}`}): not starting`);
      process.exit(1);
    }
  }
  const server = spawn(process.execPath, ['dist/server/index.js'], { cwd: root, env: startEnv(process.env), stdio: 'inherit' });
  // A terminal's Ctrl-C reaches both processes; a supervisor's SIGTERM only this one: pass it on, then leave with the
  // server's own exit status.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

if (import.meta.main) main();
