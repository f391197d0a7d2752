import type { ReactNode } from 'react';
import { useTranslation } from '../i18n.tsx';
import { Logo } from './logo.tsx';

/** The frame of the account pages: one centred card, comfortable on a small phone. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="auth-page">
      <title>{t('title', { page: title })}</title>
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
