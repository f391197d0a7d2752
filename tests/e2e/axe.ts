import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's findings on the page now on screen, one line each (`impact id: help (targets)`), empty when there are none. By
 * default the serious and critical ones, as every audit of the journeys counts them; `all` for every impact. axe runs
 * as a script in the page, so only where JavaScript is on.
 *
 * Run in axe's "legacy" mode, with only the violations' nodes collected (docs/decisions/068-suite-toward-15-minutes.md):
 * the default mode opens a blank page of its own after every audit to gather the frames' results, which doubled what
 * an audit cost; the legacy mode differs from it only for cross-origin frames, which no page of ours has. axe computes
 * every rule either way; what it skips is a unique selector for each node that passed.
 */
export async function axeFindings(page: Page, o: { include?: string; all?: boolean } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (o.include) builder = builder.include(o.include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => o.all || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
