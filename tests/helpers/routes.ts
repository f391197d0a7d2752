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
