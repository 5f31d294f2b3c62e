import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { voteBudget } from './scripts/vote-budget.ts';

/** Where `npm run dev:console` sends API calls: the gateway of `npm start`. */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const toGateway = { target: gateway, changeOrigin: false };

export default defineConfig({
  plugins: [react(), voteBudget()],
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
  },
});
