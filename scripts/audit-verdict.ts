/**
 * What an `npm audit --json` report says about the production dependencies (scripts/audit.ts, issue 18): fail on a high
 * or critical advisory; where the registry's advisory service could not be asked (no network, or a proxy that allows
 * no POST, as on the project's build machine), say so plainly and pass — the check cannot judge what it cannot ask.
 */
type Report = {
  message?: string;
  metadata?: { vulnerabilities?: Partial<Record<'info' | 'low' | 'moderate' | 'high' | 'critical', number>> };
  vulnerabilities?: Record<string, { severity?: string; range?: string }>;
};

export function auditVerdict(stdout: string, failure?: string): { ok: boolean; lines: string[] } {
  let report: Report | null;
  try {
    report = JSON.parse(stdout || '{}') as Report;
  } catch {
    report = null;
  }
  const counts = report?.metadata?.vulnerabilities;
  if (!counts) {
    const why = report?.message || failure || 'no report';
    return { ok: true, lines: [`npm audit: the registry's advisory service could not be asked (${why}); nothing was checked.`] };
  }
  const n = (k: keyof typeof counts) => counts[k] ?? 0;
  const lines = [
    `npm audit (production dependencies): ${n('critical')} critical, ${n('high')} high, ${n('moderate')} moderate, ${n('low')} low`,
  ];
  for (const [name, v] of Object.entries(report?.vulnerabilities ?? {}))
    if (v.severity === 'high' || v.severity === 'critical') lines.push(`  ${v.severity}: ${name} ${v.range ?? ''}`.trimEnd());
  return { ok: n('high') + n('critical') === 0, lines };
}
