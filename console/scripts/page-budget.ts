import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** A public page whose initial JavaScript has a budget. */
export interface PageBudget {
  /** Names the figures' file, `dist/.vite/<name>-budget.json`, and the build's line. */
  name: string;
  /** What the build's line calls the page. */
  label: string;
  /** The module whose lazy chunk is the page. */
  module: RegExp;
  /** The most gzip bytes the page may need before it can show itself. */
  budgetBytes: number;
}

/**
 * The budgets: the voting page (issue #16: 150 KB), the collector's web form (issue #17: 200 KB)
 * and the door scanner (issue #18: 200 KB).
 */
export const PAGE_BUDGETS: readonly PageBudget[] = [
  { name: 'vote', label: 'voting page', module: /\/src\/pages\/vote\/VotePage\.tsx$/, budgetBytes: 150_000 },
  {
    name: 'web-form',
    label: 'web form',
    module: /\/src\/pages\/collect\/CollectPage\.tsx$/,
    budgetBytes: 200_000,
  },
  {
    name: 'scanner',
    label: 'door scanner',
    module: /\/src\/pages\/scan\/ScannerPage\.tsx$/,
    budgetBytes: 200_000,
  },
];

interface ChunkLike {
  type: 'chunk';
  modules: Record<string, { code: string | null }>;
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

/**
 * Fails the build when a public page of {@link PAGE_BUDGETS} (the voting page `/p/{poll_id}`, the
 * web form `/f/{project_id}`) needs more gzip JavaScript than its budget before it can show
 * itself: the entry chunk, the page's lazy chunk, and every chunk they import statically. Writes
 * the figures to `dist/.vite/<name>-budget.json` (read by `npm run bench:console`; dot paths are
 * never served).
 */
export function pageBudgets(budgets: readonly PageBudget[] = PAGE_BUDGETS): Plugin {
  return {
    name: 'fieldhouse-page-budgets',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const budget of budgets) {
        const failure = checkBudget(this, bundle, budget);
        if (failure) return this.error(failure);
      }
    },
  };
}

/** Measures one page; returns the error message when it is over budget. */
function checkBudget(
  ctx: { emitFile: (file: { type: 'asset'; fileName: string; source: string }) => string },
  bundle: Record<string, { type: string }>,
  budget: PageBudget,
): string | undefined {
  const chunks = Object.values(bundle).filter((c): c is typeof c & ChunkLike => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  const page = chunks.find((c) => c.facadeModuleId && budget.module.test(c.facadeModuleId));
  if (!entry || !page) return `${budget.name} budget: the entry or the page's chunk is missing`;
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    byName.get(name)?.imports.forEach(visit);
  };
  visit(entry.fileName);
  visit(page.fileName);
  const files = [...needed].map((name) => ({
    file: name,
    gzipBytes: gzipSync(byName.get(name)!.code, { level: 9 }).length,
  }));
  const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  // Which packages weigh most (each module gzipped alone: larger than its share, same order).
  const packages: Record<string, number> = {};
  for (const name of needed)
    for (const [id, m] of Object.entries(byName.get(name)!.modules)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? 'console/src';
      packages[pkg] = (packages[pkg] ?? 0) + gzipSync(m.code ?? '').length;
    }
  const line = `${budget.label} initial JavaScript: ${(total / 1000).toFixed(1)} KB gzip in ${files.length} files (budget ${budget.budgetBytes / 1000} KB)`;
  ctx.emitFile({
    type: 'asset',
    fileName: `.vite/${budget.name}-budget.json`,
    source: JSON.stringify(
      { totalGzipBytes: total, budgetBytes: budget.budgetBytes, files, packages },
      null,
      2,
    ),
  });
  if (total > budget.budgetBytes) return `${line}: over budget`;
  console.log(line);
  return undefined;
}
