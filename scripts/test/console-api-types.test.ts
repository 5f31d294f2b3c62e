import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateApiTypes } from '../../console/scripts/api-types.ts';

describe("the console's typed API client", () => {
  it('is generated from the current OpenAPI documents (run `npm run generate:api -w @fieldhouse/console`)', async () => {
    const dir = join(import.meta.dirname, '..', '..', 'console', 'src', 'api', 'generated');
    const files = await generateApiTypes();
    expect([...files.keys()].sort()).to.deep.equal(['collection.ts', 'events.ts', 'gateway.ts', 'polls.ts']);
    for (const [file, text] of files)
      expect(
        readFileSync(join(dir, file), 'utf8') === text,
        `console/src/api/generated/${file} is stale`,
      ).to.equal(true);
  });
});
