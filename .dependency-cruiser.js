/**
 * dependency-cruiser: the import graph checks ESLint cannot make (docs/architecture.md, "Checks").
 *
 * import-x/no-cycle (eslint.config.js) skips `import type`; here type-only imports count too
 * (`tsPreCompilationDeps: true`), so "0 import cycles" holds for the graph as TypeScript sees it,
 * not only the one Node runs. Workspace packages (`@fieldhouse/*`) resolve to their sources (the
 * `source` export condition), so a cycle through a package is a cycle here as well.
 *
 * Run by `npm run lint` (`depcruise libs gateway services scripts e2e bench faults tools console/src`).
 * The layer rules of each service stay in ESLint (import-x/no-restricted-paths, which sees type
 * imports as well): they are not repeated here. Added here, because ESLint has no such rule: code
 * that ships (a `src/`) never imports test code (a `test/` folder or libs/testkit).
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle (type-only imports included): move what both sides need to a third module ' +
        '(a domain/types.ts, a lib) so the dependency runs one way.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-test',
      severity: 'error',
      comment:
        'Shipped code (libs/*/src, gateway/src, services/*/src) may not import test code (test/, ' +
        'libs/testkit): what a test needs from src is exported by src, never the other way.',
      from: { path: '^(libs/[^/]+|gateway|services/[^/]+|tools/[^/]+)/src/', pathNot: '^libs/testkit/' },
      to: { path: ['(^|/)test/', '^libs/testkit/'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/', '^console/src/api/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
