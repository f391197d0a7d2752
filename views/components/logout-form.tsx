import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { CsrfField } from './csrf-field.tsx';

/** "Log out": a plain form posting to /logout with the CSRF token (works without JavaScript); the top bar's and the reality check's. */
export function LogoutForm({ className, children }: { className: string; children: ReactNode }) {
  return (
    <Form method="post" action={paths.logout} className="inline-form">
      <CsrfField />
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}
