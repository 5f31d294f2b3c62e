import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { catalogue, catalogueMarkdown, COMPONENTS } from '../lib/problem-catalogue.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('problem type catalogue (docs/problem-types.md)', () => {
  it('is up to date with the sources (regenerate with npm run docs:problems)', () => {
    expect(readFileSync(join(root, 'docs/problem-types.md'), 'utf8')).to.equal(catalogueMarkdown(root));
  });

  it('finds codes given explicitly and by the constructors, with their statuses', () => {
    const events = catalogue(root, COMPONENTS.events!);
    expect(events.find((p) => p.code === 'email_taken')).to.include({
      type: 'urn:fieldhouse:problem:email-taken',
    });
    expect(events.find((p) => p.code === 'email_taken')!.statuses).to.deep.equal([422]);
    const gateway = catalogue(root, COMPONENTS.gateway!);
    expect(gateway.find((p) => p.code === 'invalid_credentials')!.statuses).to.deep.equal([401]);
    expect(gateway.find((p) => p.code === 'rate_limited')!.statuses).to.deep.equal([429]);
  });
});
