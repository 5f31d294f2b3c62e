import { registerSW } from 'virtual:pwa-register';

let registered = false;

/**
 * Registers the web form's service worker (vite-plugin-pwa, Workbox), scoped to `/f/`: it
 * keeps the app's files so a web form opens and reloads without network. Only the web form
 * registers it, so the rest of the console is never served from a worker's cache. A new
 * version takes over on the next load (`autoUpdate`). Nothing happens in development.
 */
export function registerCollectWorker() {
  if (registered || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registered = true;
  registerSW({ immediate: true });
}
