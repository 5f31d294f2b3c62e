import './app/public-styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/index.ts';
import { App } from './app/App.tsx';
import { createQueryClient } from './app/query-client.ts';
import { warmUp } from './app/warm-up.ts';

const queryClient = createQueryClient();
// A voter's first page gets its code, strings and poll before the first render (at most 2 s).
void warmUp(queryClient).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
