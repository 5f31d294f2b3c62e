import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiTypes } from './api-types.ts';

/** `npm run generate:api -w @fieldhouse/console`: rewrites src/api/generated/*.ts. */
const dir = join(import.meta.dirname, '..', 'src', 'api', 'generated');
for (const [file, text] of await generateApiTypes()) {
  writeFileSync(join(dir, file), text);
  console.log(`wrote src/api/generated/${file}`);
}
