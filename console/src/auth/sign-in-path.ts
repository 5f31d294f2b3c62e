/**
 * The sign-in page's address that brings the user back to `location` (the page they were on)
 * once signed in: `/sign-in?next=<path, query and hash, URI-encoded>`.
 */
export const signInPathFor = (location: { pathname: string; search: string; hash: string }) =>
  `/sign-in?next=${encodeURIComponent(location.pathname + location.search + location.hash)}`;

/** The `next` of a sign-in URL if it is a path of this console (never another origin), else `/`. */
export function nextPathOf(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
