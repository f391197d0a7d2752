/** Development: the client rebuilds on change (esbuild watch) and the server restarts on change (tsx watch). */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const children = [
  spawn(bin('tsx'), ['scripts/build.ts', '--watch'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/index.ts'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
