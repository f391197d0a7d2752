import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { CsrfField } from './csrf-field.tsx';
import { Dialog } from './dialog.tsx';
import { SubmitButton } from './form.tsx';

/**
 * The back office's confirmation of a step that cannot be undone (docs/decisions/019-back-office-shell.md): a dialog
 * opened from its own address (`?approve=`, `?notify=`, `?delete=`), so it is a page of its own without JavaScript;
 * its form posts `intent` and the hidden fields to `action`, Cancel goes back to `cancelHref`.
 */
export function ConfirmDialog({
  titleId,
  title,
  children,
  action,
  cancelHref,
  hidden,
  fields,
  intent,
  confirm,
  cancel,
  danger = false,
}: {
  titleId: string;
  title: string;
  /** What is about to happen: the texts and facts above the buttons. */
  children: ReactNode;
  action: string;
  cancelHref: string;
  hidden: Record<string, string | number>;
  /** Inputs the confirmation asks for (a reason). */
  fields?: ReactNode;
  intent: string;
  confirm: string;
  cancel: string;
  danger?: boolean;
}) {
  return (
    <Dialog titleId={titleId} dismissHref={cancelHref} className="draw-confirm">
      <h2 id={titleId}>{title}</h2>
      {children}
      <Form method="post" action={action} noValidate className="draw-confirm__form">
        <CsrfField />
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {fields}
        <div className="draw-confirm__actions">
          <SubmitButton name="intent" value={intent} className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}>
            {confirm}
          </SubmitButton>
          <Link className="btn btn-ghost" to={cancelHref} replace preventScrollReset>
            {cancel}
          </Link>
        </div>
      </Form>
    </Dialog>
  );
}
