import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';

/** Logout is a POST (CSRF-checked); the API revokes the refresh token and the server clears the cookie. */
export async function action({ context }: ActionFunctionArgs) {
  await apiOf(context).logout();
  return redirect(withQuery(paths.login, { notice: 'loggedOut' }));
}

export function loader(_: LoaderFunctionArgs) {
  return redirect(paths.home);
}

export function Component() {
  return null;
}
