import { lazy, type ComponentType } from 'react';

/** A lazily loaded page that can also be fetched ahead of its first render. */
export type PreloadablePage = ComponentType & { preload: () => Promise<unknown> };

/**
 * `React.lazy` with a `preload()`. React.lazy suspends on its first render even when the chunk
 * is already there (its promise settles a microtask later), and the reveal then waits for
 * React's Suspense throttle (about 300 ms): once `preload()` has settled, the page renders
 * directly instead.
 */
export function lazyPage(load: () => Promise<ComponentType>): PreloadablePage {
  let loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const fetchPage = () =>
    (pending ??= load().then((page) => {
      loaded = page;
      return page;
    }));
  const Lazy = lazy(async () => ({ default: await fetchPage() }));
  const Page = (props: object) => {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
  return Object.assign(Page, { preload: fetchPage });
}
