import { useRootData } from '../root.tsx';

/**
 * Whether the logged-in user is staff, as the page's session says (a superuser is always staff;
 * docs/decisions/047-staff-do-not-play.md). Pages of the full app only: the home page's islands get it as a prop, since
 * they hydrate without the root's data. Kept apart from staff-no-play.tsx, which the islands load: this module brings
 * the root route, and with it the whole API contract, into whatever imports it.
 */
export const useIsStaff = (): boolean => useRootData().user?.is_staff === true;
