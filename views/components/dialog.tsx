import { useNavigate } from 'react-router';
import { ModalDialog, type DialogProps } from './modal-dialog.tsx';

/** ModalDialog inside the router app: dismissHref is followed by a client-side navigation. */
export function Dialog(props: DialogProps) {
  const navigate = useNavigate();
  const { dismissHref, onClose } = props;
  const close =
    onClose ??
    (dismissHref
      ? () => {
          if (dismissHref.includes('lng=')) window.location.assign(dismissHref);
          else navigate(dismissHref, { preventScrollReset: true, replace: true });
        }
      : undefined);
  return <ModalDialog {...props} onClose={close} />;
}
