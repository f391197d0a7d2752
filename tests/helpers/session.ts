import request from 'supertest';

export type Agent = ReturnType<typeof request.agent>;

/** The CSRF token the server rendered into a page's forms (the hidden `_csrf` input). */
export function csrfFrom(html: string): string {
  const m = /name="_csrf"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="_csrf"/.exec(html);
  const token = m?.[1] ?? m?.[2];
  if (!token) throw new Error('no _csrf field in the page');
  return token;
}

/**
 * Logs in the way a browser without JavaScript does: GET /login (visitor and CSRF cookies, token from the form),
 * then POST the login form. Returns the agent, which now carries the `bh_session` cookie.
 * Give it an agent to keep using, or the app's URL to get a new one.
 */
export async function loginAs(agentOrUrl: Agent | string, phone: string, password: string): Promise<Agent> {
  const agent = typeof agentOrUrl === 'string' ? request.agent(agentOrUrl) : agentOrUrl;
  const page = await agent.get('/login').expect(200);
  const res = await agent
    .post('/login')
    .type('form')
    .send({ identifier: phone, password, _csrf: csrfFrom(page.text) });
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  if (res.status !== 303 || !cookies.some((c) => c.startsWith('bh_session='))) {
    throw new Error(`login as ${phone} failed: ${res.status} ${res.text.slice(0, 200)}`);
  }
  return agent;
}
