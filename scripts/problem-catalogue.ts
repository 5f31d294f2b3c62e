import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogueMarkdown } from './lib/problem-catalogue.ts';

/** `npm run docs:problems`: writes docs/problem-types.md, the problem types of every component, from the sources. */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(root, 'docs/problem-types.md'), catalogueMarkdown(root));
console.log('wrote docs/problem-types.md');
