import { CSRF_FIELD } from '../../shared/paths.ts';
import { useRootData } from '../root.tsx';

/** Every form carries the CSRF token, so a plain no-JS post passes the server's check. */
export function CsrfField() {
  return <input type="hidden" name={CSRF_FIELD} value={useRootData().csrf} />;
}
