import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateApiTypes } from '../../console/scripts/api-types.ts';

describe("the console's typed API client", function () {
  // Four documents through openapi-typescript and prettier: about 11 s of CPU on a quiet core,
  // past mocha's 30 s when the test shards share the cores.
  this.timeout(180_000);
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
