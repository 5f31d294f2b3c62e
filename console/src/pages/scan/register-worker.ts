let registered = false;

/**
 * Registers the console's service worker (the web form's, built by vite-plugin-pwa: it
 * precaches the app's files) for the door scanner's scope, `/scan/`, so the scanner opens and
 * reloads without network; the API is never cached (the queue lives in IndexedDB). The worker
 * serves `index.html` for navigations under `/f/` and `/scan/` only. Nothing in development.
 */
export function registerScannerWorker() {
  if (registered || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registered = true;
  navigator.serviceWorker.register('/sw.js', { scope: '/scan/' }).catch(() => {
    registered = false; // tried again on the next page of the scanner
  });
}
