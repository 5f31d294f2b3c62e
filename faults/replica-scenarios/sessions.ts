/**
 * Replicas scenario `sessions`: a browser session started on one gateway (CSRF cookie, then
 * login) is signed in on the other, a cookie-authenticated write with the CSRF header works
 * there too, and a logout on the second ends the session on the first (sessions live in
 * PostgreSQL, shared by every gateway replica).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { FIXTURE_PASSWORD } from '../lib/fixtures.ts';
import { Api } from '../lib/http.ts';
import type { Scenario } from '../lib/scenario.ts';

/** The cookies a browser keeps: each `Set-Cookie` name=value, replaced on every answer. */
class CookieJar {
  private readonly values = new Map<string, string>();

  take(headers: IncomingHttpHeaders): void {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  get(name: string): string | undefined {
    const v = this.values.get(name);
    return v === undefined ? undefined : decodeURIComponent(v);
  }

  /** The `Cookie` header, plus `X-XSRF-TOKEN` as a single-page application sends it. */
  headers(): Record<string, string> {
    const xsrf = this.get('XSRF-TOKEN');
    return {
      cookie: [...this.values.entries()].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(xsrf ? { 'x-xsrf-token': xsrf } : {}),
    };
  }
}

export const sessions: Scenario = {
  name: 'sessions',
  title: 'a login session made on one gateway works on the other, and ends on both',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const [n1, n2] = stack.namesOf('gateway');
    const g1 = new Api(stack.urlOf(n1!));
    const g2 = new Api(stack.urlOf(n2!));
    const jar = new CookieJar();
    const step = async (api: Api, method: string, path: string, body?: unknown) => {
      const a = await api.send(method, path, body, jar.headers());
      jar.take(a.headers);
      return a;
    };
    const csrf = await step(g1, 'GET', '/api/v1/csrf-cookie');
    const login = await step(g1, 'POST', '/api/v1/login', {
      email: fx.user.email,
      password: FIXTURE_PASSWORD,
    });
    report.check(
      csrf.status === 204 && login.status === 200 && jar.get('XSRF-TOKEN') !== undefined,
      `on ${n1}: csrf-cookie ${csrf.status}, login ${login.status}, session and XSRF cookies set`,
    );
    const me = await step(g2, 'GET', '/api/v1/me');
    const write = await step(g2, 'POST', '/api/v1/workspaces', { name: `Session ${fx.runId}` });
    report.check(
      me.status === 200 && me.body?.data?.id === fx.user.id && write.status === 201,
      `on ${n2} with the cookies of ${n1}: /api/v1/me ${me.status} (user ${me.body?.data?.id}, expected ${fx.user.id}), cookie-authenticated write with X-XSRF-TOKEN ${write.status}`,
    );
    const beforeLogout = jar.headers();
    const logout = await step(g2, 'POST', '/api/v1/logout');
    // The old cookies, as a second tab that did not see the logout would send them.
    const after = await g1.send('GET', '/api/v1/me', undefined, beforeLogout);
    report.check(
      logout.status === 204 && after.status === 401,
      `logout on ${n2} ${logout.status}; the same session's cookies then on ${n1}: ${after.status}`,
    );
    g1.close();
    g2.close();
  },
};
