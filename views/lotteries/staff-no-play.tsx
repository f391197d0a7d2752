import { useTranslation } from '../i18n.tsx';

/**
 * Staff do not play (docs/rules/accounts-and-codes.md#12-staff-and-superusers, docs/decisions/047-staff-do-not-play.md):
 * in place of a form that buys, pays for or activates a ticket, a staff account sees the refusal the API would give
 * (403 `staff_cannot_play`, the same text), instead of learning it only on submit. The API still refuses by itself.
 */
export function StaffNoPlay() {
  const { t } = useTranslation('lottery');
  return (
    <p className="alert alert--info staff-no-play" role="note">
      {t('play.staffCannotPlay')}
    </p>
  );
}
