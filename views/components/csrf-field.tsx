import { useRootData } from '../root.tsx';

export const CSRF_FIELD = '_csrf';

/** Every form carries the CSRF token, so a plain no-JS post passes the server's check. */
export function CsrfField() {
  return <input type="hidden" name={CSRF_FIELD} value={useRootData().csrf} />;
}
