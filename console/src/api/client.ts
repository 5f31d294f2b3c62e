import createClient, { type Middleware } from 'openapi-fetch';
import { xsrfToken } from './csrf.ts';
import type { paths as CollectionPaths } from './generated/collection.ts';
import type { paths as EventsPaths } from './generated/events.ts';
import type { paths as GatewayPaths } from './generated/gateway.ts';
import type { paths as PollsPaths } from './generated/polls.ts';
import { apiErrorOf, networkError } from './problem.ts';
import { loadProblemMessages } from './problem-message.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every unsafe request carries the session's CSRF token in `X-XSRF-TOKEN` (spec 5.2): the
 * console authenticates with the gateway's session cookie only and never holds a bearer token.
 * Every request says the console's language (`Accept-Language`, the page's `lang`), so what
 * a service e-mails because of it (a vote's one-time password) is in that language.
 */
const csrf: Middleware = {
  async onRequest({ request }) {
    const lang = document.documentElement.lang;
    if (lang) request.headers.set('Accept-Language', lang);
    if (!UNSAFE.has(request.method)) return request;
    const token = await xsrfToken();
    if (token) request.headers.set('X-XSRF-TOKEN', token);
    return request;
  },
};

const make = <Paths extends object>() => {
  const client = createClient<Paths>({ baseUrl: '', credentials: 'same-origin' });
  client.use(csrf);
  return client;
};

/** The gateway's own API: identity (login, register, me, logout, tokens). */
export const gatewayApi = make<GatewayPaths>();
/** Area A through the gateway (`/api/v1`). */
export const collectionApi = make<CollectionPaths>();
/** Area B through the gateway (`/api/polls`). */
export const pollsApi = make<PollsPaths>();
/** Area C through the gateway (`/api/events`). */
export const eventsApi = make<EventsPaths>();

/**
 * Awaits an openapi-fetch call and returns its `data`, or throws an `ApiError` (./problem.ts) carrying
 * the answer's problem document (status 0 when the request never got an answer). Before a
 * refusal is thrown, the problem messages (a lazy i18next namespace, docs/console.md, "Errors")
 * are loaded, once.
 *
 *     const poll = await call(pollsApi.GET('/api/polls/{poll_id}', { params: { path: { poll_id } } }));
 */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await pending;
  } catch (err) {
    throw networkError(err);
  }
  if (!answer.response.ok) {
    // The refusal reaches the page with its messages loaded, so it is told in the user's words.
    await loadProblemMessages();
    throw apiErrorOf(answer.response, answer.error);
  }
  return answer.data as T;
}
