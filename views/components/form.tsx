import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useNavigation } from 'react-router';
import { useTranslation } from '../i18n.tsx';

/** What a form action hands back to its page: field errors, a form-level error, the values to refill. */
export type FormResult = { errors?: Record<string, string>; formError?: string; values?: Record<string, string>; notice?: string };

export function Field({
  label,
  name,
  error,
  hint,
  children,
  ...input
}: {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: ReactNode;
  children?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errId = `${id}-err`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="field__control">
        <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {children}
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Password with a show/hide toggle (the toggle needs JavaScript; without it the field is a plain password). */
export function PasswordField(props: {
  label: string;
  name: string;
  error?: string | undefined;
  autoComplete: string;
  minLength?: number;
  required?: boolean;
}) {
  const [shown, setShown] = useState(false);
  const { t } = useTranslation();
  return (
    <Field {...props} type={shown ? 'text' : 'password'}>
      <button
        type="button"
        className="field__toggle"
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
        aria-label={shown ? t('actions.hidePassword') : t('actions.showPassword')}
      >
        {shown ? <EyeOff /> : <Eye />}
      </button>
    </Field>
  );
}

export function Alert({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Submit button that shows a pending state while its own form is being submitted. */
export function SubmitButton({
  children,
  name,
  value,
  className = 'btn btn-primary btn-block',
  disabled,
}: {
  children: ReactNode;
  name?: string;
  value?: string;
  className?: string;
  disabled?: boolean;
}) {
  const nav = useNavigation();
  const { t } = useTranslation();
  const pending = nav.state === 'submitting' && (name === undefined || nav.formData?.get(name) === value);
  return (
    <button type="submit" name={name} value={value} className={className} disabled={disabled || pending} aria-busy={pending || undefined}>
      {pending ? (
        <>
          <span className="spinner" aria-hidden="true" />
          {t('actions.submitting')}
        </>
      ) : (
        children
      )}
    </button>
  );
}

const Eye = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path
      fill="currentColor"
      d="M12 5c-5 0-9 4.5-10 7 1 2.5 5 7 10 7s9-4.5 10-7c-1-2.5-5-7-10-7Zm0 11.5A4.5 4.5 0 1 1 12 7.5a4.5 4.5 0 0 1 0 9Zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z"
    />
  </svg>
);
const EyeOff = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path
      fill="currentColor"
      d="M3.3 2 2 3.3l3.2 3.2C3.5 7.8 2.5 9.6 2 12c1 2.5 5 7 10 7 1.7 0 3.2-.5 4.5-1.2l4.2 4.2 1.3-1.3L3.3 2ZM12 16.5A4.5 4.5 0 0 1 7.5 12c0-.8.2-1.5.5-2.1l1.5 1.5a2.5 2.5 0 0 0 3.1 3.1l1.5 1.5c-.6.3-1.3.5-2.1.5Zm0-11.5c-1.3 0-2.6.3-3.7.8l1.9 1.9c.6-.2 1.2-.2 1.8-.2a4.5 4.5 0 0 1 4.5 4.5c0 .6-.1 1.2-.3 1.8l2.9 2.9c1.4-1.2 2.5-2.7 2.9-3.7-1-2.5-5-7-10-7Z"
    />
  </svg>
);

/** Reads a form field as a trimmed string (absent → ''). */
export const field = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === 'string' ? v.trim() : '';
};

/**
 * A multi-line text field of a staff form (a description): its label, its stored or typed value, its error under it.
 * `idPrefix` keeps its id apart from another form's on the page.
 */
export function TextArea({
  idPrefix,
  name,
  label,
  value,
  error,
  lang,
}: {
  idPrefix: string;
  name: string;
  label: string;
  value: string | undefined;
  error?: string | undefined;
  lang?: string;
}) {
  const id = `${idPrefix}-${name}`;
  return (
    <div className={`field field--wide${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        maxLength={2000}
        defaultValue={value ?? ''}
        lang={lang}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
      />
      {error ? (
        <p id={`${id}-err`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
