/** `npm run audit`: npm audit of the production dependencies, judged by scripts/audit-verdict.ts (exit 1 on high or critical). */
import { spawnSync } from 'node:child_process';
import { auditVerdict } from './audit-verdict.ts';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 120_000 });
const verdict = auditVerdict(run.stdout ?? '', run.error?.message ?? (run.status ? `npm audit exited ${run.status}` : undefined));
for (const line of verdict.lines) console.log(line);
process.exit(verdict.ok ? 0 : 1);
