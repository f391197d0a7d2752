import type { ReactNode } from 'react';
import { useTranslation } from '../i18n.tsx';
import { Head } from './head.tsx';
import { Logo } from './logo.tsx';

/**
 * The frame of the account pages: one centred card, comfortable on a small phone. The page's description is its
 * subtitle unless `description` is given (a subtitle naming the visitor's phone or e-mail does not belong there).
 */
export function AuthCard({
  title,
  subtitle,
  description,
  children,
}: {
  title: string;
  subtitle?: string;
  description?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="auth-page">
      <Head title={t('title', { page: title })} description={description ?? subtitle ?? t('home:meta.description')} />
      <div className="auth-card">
        <div className="auth-card__head">
          <Logo size={44} />
          <h1>{title}</h1>
          {subtitle ? <p>{subtitle}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}
