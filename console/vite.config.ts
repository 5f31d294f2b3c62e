import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { pageBudgets } from './scripts/page-budget.ts';

/** Where `npm run dev:console` sends API calls: the gateway of `npm start`. */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const toGateway = { target: gateway, changeOrigin: false };

export default defineConfig({
  plugins: [
    react(),
    pageBudgets(),
    // The service worker of the web form (src/pages/collect/register-worker.ts, scope /f/) and
    // of the door scanner (src/pages/scan/register-worker.ts, scope /scan/): it precaches the app
    // so those pages open and reload offline; the API is never cached here
    // (the form itself is kept in IndexedDB). No manifest: the console is not installable.
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'autoUpdate',
      scope: '/f/',
      filename: 'sw.js',
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        globIgnores: ['**/.vite/**'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: [/^\/f\//, /^\/scan\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        maximumFileSizeToCacheInBytes: 3_000_000,
      },
    }),
  ],
  // Workspace packages the console bundles (@fieldhouse/form-logic) are read from their sources
  // (their `source` export), as tsc and the services do: there is no build step for libs.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': toGateway,
      '/sanctum': toGateway,
      '/docs': toGateway,
      '/.well-known': toGateway,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // maplibre-gl and vega are lazy chunks of the map and analyses pages (about 1 MB each); the
    // pages that must stay small have their own budgets (scripts/page-budget.ts).
    chunkSizeWarningLimit: 1500,
    // The router, TanStack Query, openapi-fetch and the API client in one chunk: every page needs
    // them, and left to itself the bundler splits them by which lazy pages share them, which cost
    // the voting page 2 KB gzip of its 150 KB budget once the scanner pages came.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'core',
              test: /node_modules[\\/](react-router|@tanstack|openapi-fetch)[\\/]|src[\\/]api[\\/]/,
            },
          ],
        },
      },
    },
  },
});
