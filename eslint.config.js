// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

const services = ['collection', 'polls', 'events'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.local/**', 'console/src/api/generated/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  // Imports: no cycles anywhere. Workspace packages (`@fieldhouse/*`) resolve to their sources
  // (the `source` condition), so a cycle through a package is seen too.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
          conditionNames: ['source', 'import', 'default'],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Boundaries (docs/architecture.md), on resolved paths, so `@fieldhouse/<pkg>` counts too.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './libs',
              from: ['./gateway', './services'],
              message: 'libs/ hold generic code only: a lib may not import the gateway or a service.',
            },
            {
              target: './services',
              from: './gateway',
              message: 'A service may not import the gateway (talk to it over HTTP or messages).',
            },
            ...services.map((svc) => ({
              target: `./services/${svc}`,
              from: services.filter((other) => other !== svc).map((other) => `./services/${other}`),
              message: 'A service may not import another service (share code through libs/).',
            })),
            ...services.map((svc) => ({
              target: `./services/${svc}/src/data`,
              from: `./services/${svc}/src/domain`,
              except: ['./types.ts', './types'],
              message:
                'data/ may not import domain/ (queries only): share types through domain/types, free of logic.',
            })),
            ...services.map((svc) => ({
              target: `./services/${svc}/src/domain`,
              from: [`./services/${svc}/src/http`, `./services/${svc}/src/workers`],
              message: 'domain/ may not import http/ or workers/: they call use cases, not the other way.',
            })),
            ...services.map((svc) => ({
              target: `./services/${svc}/src/http`,
              from: `./services/${svc}/src/data`,
              message: 'http/ may not import data/: call a use case of domain/ instead.',
            })),
          ],
        },
      ],
    },
  },
  // The console (React): hooks rules; it talks to the API over HTTP only, never through server code.
  {
    files: ['console/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // @fieldhouse/form-logic is shared client logic (the form engine the web form and
              // the form builder evaluate), not server code: the one workspace package allowed.
              group: ['@fieldhouse/*', '!@fieldhouse/form-logic'],
              message: 'The console is a client of the public API: use src/api/client.ts, not server code.',
            },
          ],
        },
      ],
    },
  },
  // domain/ holds use cases: no Express and no driver (types included): queries live in data/,
  // which hands the domain its own types (a transaction `Tx`, repositories).
  {
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'express',
              message: 'domain/ may not use Express: take a typed command, throw problems of the catalogue.',
            },
            { name: 'express-serve-static-core', message: 'domain/ may not use Express types.' },
            ...['knex', 'pg', 'mongodb', 'redis', 'amqplib', 'node:http', 'http', 'node:net'].map((name) => ({
              name,
              message: `domain/ may not use a driver (${name}): put the query in data/ and call it.`,
            })),
          ],
          patterns: [
            { group: ['express/*'], message: 'domain/ may not use Express.' },
            { group: ['@redis/*'], message: 'domain/ may not use a driver: put the query in data/.' },
          ],
        },
      ],
    },
  },
);
