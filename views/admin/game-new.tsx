import { Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { adminPaths, withQuery } from '../../shared/paths.ts';
import type { FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key } from '../components/messages.ts';
import { useTranslation } from '../i18n.tsx';
import { GameForm, postGame, valuesOf } from './game-form.tsx';

/** /admin/games/new: a new game's form with the defaults (docs/rules/games.md#1-the-game). */
export function loader() {
  return { values: valuesOf(null, Date.now()) };
}

/** Created: the game's own page, where its first draws are listed (as a new lottery is shown on its own page). */
export async function action({ request, context }: ActionFunctionArgs) {
  const s = await postGame(await request.formData(), context, {
    editing: false,
    call: (api, body) => api.call(contract.createGame, { body }),
    failed: (message) => (message ? key('admin:gameForm.createFailedWith', { message }) : key('admin:gameForm.createFailed')),
  });
  if (!s.ok) return s.reply;
  return redirect(withQuery(adminPaths.game(s.data.id), { notice: 'created' }), 303);
}

export function Component() {
  const { t } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  // After a refused post, what was sent; otherwise the defaults.
  const values = result?.values ? { ...d.values, ...result.values } : d.values;
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('gameForm.createTitle') })} description={t('gameForm.createLead')} />
      <p className="back-link">
        <Link to={adminPaths.games}>{t('games.back')}</Link>
      </p>
      <h1>{t('gameForm.createTitle')}</h1>
      <p className="muted">{t('gameForm.createLead')}</p>
      <GameForm values={values} errors={result?.errors} formError={result?.formError} editing={false} />
    </section>
  );
}
