import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../views/routes.tsx';

/** Every route of the tree with its full path (`/`, `/login`, `/admin/*`), depth first. */
export function flattenRoutes(routes: RouteObject[], base = ''): { path: string; route: RouteObject }[] {
  const out: { path: string; route: RouteObject }[] = [];
  for (const r of routes) {
    const path = r.path === undefined ? base : r.path.startsWith('/') ? r.path : `${base.replace(/\/$/, '')}/${r.path}`;
    out.push({ path: path || '/', route: r });
    if (r.children) out.push(...flattenRoutes(r.children, path));
  }
  return out;
}

export const handleOf = (r: RouteObject): RouteHandle | undefined => r.handle as RouteHandle | undefined;

/** Sample values for the route parameters of the tree (any other parameter gets `1`). */
export const SAMPLE_PARAMS: Record<string, string> = { lotteryId: '1', ticket: '01-02-03-04-05-06' };
export const samplePath = (p: string) =>
  p
    .replace(/:(\w+)\??/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? '1')
    .replace(/\*\w*/g, 'csrf-sample')
    .replace(/[{}]/g, '');

const join = (parent: string, child: string) => (child.startsWith('/') ? child : `${parent.replace(/\/$/, '')}/${child}`);

/** Every path of the route tree with an action: inline, or in the module its `lazy` loads. */
export async function actionPaths(tree: RouteObject[], parent = ''): Promise<string[]> {
  const out: string[] = [];
  for (const r of tree) {
    const path = r.path !== undefined ? join(parent, r.path) : parent || '/';
    let hasAction = typeof r.action === 'function';
    if (!hasAction && typeof r.lazy === 'function') hasAction = typeof ((await r.lazy()) as { action?: unknown }).action === 'function';
    else if (!hasAction && r.lazy && typeof r.lazy === 'object') hasAction = 'action' in r.lazy;
    if (hasAction) out.push(samplePath(path));
    if (r.children) out.push(...(await actionPaths(r.children, path)));
  }
  return [...new Set(out)];
}
