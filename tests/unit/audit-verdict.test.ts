/** The npm audit step (scripts/audit-verdict.ts): high or critical advisories fail it; an unreachable service is said, not failed. */
import { auditVerdict } from '../../scripts/audit-verdict.ts';

const report = (v: Record<string, number>, vulns: Record<string, { severity: string; range?: string }> = {}) =>
  JSON.stringify({ metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...v } }, vulnerabilities: vulns });

test('no advisory, or only low and moderate ones: passes, with the counts', () => {
  expect(auditVerdict(report({}))).toEqual({
    ok: true,
    lines: ['npm audit (production dependencies): 0 critical, 0 high, 0 moderate, 0 low'],
  });
  expect(auditVerdict(report({ moderate: 2, low: 1 })).ok).toBe(true);
});

test('a high or a critical advisory fails, naming the package', () => {
  const high = auditVerdict(report({ high: 1 }, { undici: { severity: 'high', range: '<6.0.0' }, ms: { severity: 'low' } }));
  expect(high).toEqual({
    ok: false,
    lines: ['npm audit (production dependencies): 0 critical, 1 high, 0 moderate, 0 low', '  high: undici <6.0.0'],
  });
  expect(auditVerdict(report({ critical: 1 }, { x: { severity: 'critical' } })).ok).toBe(false);
});

test('the advisory service unreachable (a proxy refusing POST, no network, no output): passes and says nothing was checked', () => {
  const refused = auditVerdict(
    JSON.stringify({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk' }),
  );
  expect(refused.ok).toBe(true);
  expect(refused.lines[0]).toMatch(/could not be asked \(405 Method Not Allowed .*\); nothing was checked\.$/);
  expect(auditVerdict('', 'spawnSync npm ETIMEDOUT').lines[0]).toContain('(spawnSync npm ETIMEDOUT)');
  expect(auditVerdict('not json').ok).toBe(true);
});
