import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The voting page's initial JavaScript, gzip, in bytes (issue #16: at most 150 KB). */
export const VOTE_PAGE_BUDGET_BYTES = 150_000;
/** The module whose lazy chunk is the voting page. */
const VOTE_PAGE_MODULE = /\/src\/pages\/vote\/VotePage\.tsx$/;

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
 * Fails the build when the voting page (`/p/{poll_id}`) needs more than
 * {@link VOTE_PAGE_BUDGET_BYTES} of gzip JavaScript before it can show a poll: the entry chunk,
 * the voting page's lazy chunk, and every chunk they import statically. Writes the figures to
 * `dist/.vite/vote-budget.json` (read by `npm run bench:console`; dot paths are never served).
 */
export function voteBudget(): Plugin {
  return {
    name: 'fieldhouse-vote-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is typeof c & ChunkLike => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry);
      const page = chunks.find((c) => c.facadeModuleId && VOTE_PAGE_MODULE.test(c.facadeModuleId));
      if (!entry || !page) return this.error('vote budget: the entry or the voting page chunk is missing');
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
      const line = `voting page initial JavaScript: ${(total / 1000).toFixed(1)} KB gzip in ${files.length} files (budget ${VOTE_PAGE_BUDGET_BYTES / 1000} KB)`;
      this.emitFile({
        type: 'asset',
        fileName: '.vite/vote-budget.json',
        source: JSON.stringify(
          { totalGzipBytes: total, budgetBytes: VOTE_PAGE_BUDGET_BYTES, files, packages },
          null,
          2,
        ),
      });
      if (total > VOTE_PAGE_BUDGET_BYTES && !process.env.NO_BUDGET) return this.error(`${line}: over budget`);
      console.log(line);
    },
  };
}
