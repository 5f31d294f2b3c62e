import { useSyncExternalStore } from 'react';

/** The scheme Mantine applied to the page: the `data-mantine-color-scheme` of `<html>`. */
const read = (): 'light' | 'dark' =>
  document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark' ? 'dark' : 'light';

const subscribe = (changed: () => void) => {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-mantine-color-scheme'],
  });
  return () => observer.disconnect();
};

/**
 * The color scheme the page is shown in (light or dark, `auto` already resolved by Mantine),
 * following its changes. Mantine's own `useComputedColorScheme` gives the same, but importing
 * it from a lazy page (the map, the charts) made the bundler split Mantine's Button out of the
 * entry chunk, 1 KB gzip more for the voting page (issue 32; docs/console.md, "Speed").
 */
export const usePageScheme = () => useSyncExternalStore(subscribe, read, () => 'light' as const);
