import { Link } from 'react-router';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { useTranslation } from '../i18n.tsx';

/**
 * Previous / "page N of M" / next links of a list paged on the server; `texts` is the key prefix of the list's
 * texts (`…pages`, `…prev`, `…page`, `…next`). Shown only when there is more than one page.
 */
export function Pager({
  page,
  pages,
  href,
  texts,
  lng,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  texts: string;
  lng: Language;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t(`${texts}.pages`)}>
      {page > 1 ? (
        <Link className="btn btn-ghost btn-sm" rel="prev" to={href(Math.min(page - 1, pages))}>
          ← {t(`${texts}.prev`)}
        </Link>
      ) : (
        <span />
      )}
      <span className="pager__where" aria-current="page">
        {t(`${texts}.page`, { page: formatNumber(page, lng), pages: formatNumber(pages, lng) })}
      </span>
      {page < pages ? (
        <Link className="btn btn-ghost btn-sm" rel="next" to={href(page + 1)}>
          {t(`${texts}.next`)} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
