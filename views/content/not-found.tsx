import { data } from 'react-router';
import { useTranslation } from '../i18n.tsx';

export function loader() {
  throw data(null, { status: 404 });
}

export function Component() {
  const { t } = useTranslation();
  return <h1>{t('errors.notFoundTitle')}</h1>;
}
