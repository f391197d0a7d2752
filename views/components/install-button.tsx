import { useTranslation } from '../i18n.tsx';

/**
 * "Install the app": hidden until the browser offers to install the site (`beforeinstallprompt`), then shown and
 * wired by client/app-shell.ts (`<html data-installable>`, views/styles/app.css). The same markup on the server and in
 * the browser: nothing here changes with the offer, so the footer rendered once (server/ssr/footer.tsx) stays valid.
 */
export function InstallButton() {
  const { t } = useTranslation();
  return (
    <button type="button" className="btn btn-accent btn-sm install-app" data-install-app="">
      {t('footer.install')}
    </button>
  );
}
