import { expect } from 'chai';
import { allOperations, createFixtures, loadDocuments } from '../fuzz/index.ts';
import { DocumentConformance } from '../fuzz/checks.ts';
import { collectionDocument } from '@fieldhouse/collection';
import { eventsDocument } from '@fieldhouse/events';
import { gatewayDocument } from '@fieldhouse/gateway';
import { pollsDocument } from '@fieldhouse/polls';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

/**
 * The documents describe what the services answer: every documented GET, called through the
 * gateway on the fuzzer's fixtures (a workspace, a form with text, choice and photo fields, a
 * submission, an event, a poll...), answers 2xx JSON that passes the schema its document
 * declares (ajv). Issue 14, item 10: fields without choices answered `choices: null` where the
 * document declared an array.
 */
describe('e2e: documented GET answers match their OpenAPI response schemas', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('serves under /docs the documents generated from the declarations, with what the gateway answers itself', async () => {
    const docs = (await loadDocuments(stack.gatewayUrl)) as Record<string, { paths: Record<string, object> }>;
    const generated = {
      gateway: gatewayDocument,
      collection: collectionDocument,
      polls: pollsDocument,
      events: eventsDocument,
    };
    for (const [name, document] of Object.entries(generated))
      expect(Object.keys(docs[name]!.paths), name).to.deep.equal(Object.keys(document.paths));
    const vote = docs.polls!.paths['/api/polls/{poll_id}/vote'] as Record<string, { responses: object }>;
    expect(vote.post!.responses).to.include.keys('201', '202', '429', '502', '504');
  });

  it('every GET with a JSON response schema answers a body that passes it', async function () {
    this.timeout(60_000);
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const bob = await registerUser(stack.gatewayUrl, 'Bob Other');
    const { paths } = await createFixtures(stack.gatewayUrl, alice.token, alice.id, bob);
    const docs = await loadDocuments(stack.gatewayUrl);
    const conformance = new DocumentConformance(docs);
    const differences: string[] = [];
    let checked = 0;
    for (const op of allOperations(docs).filter((o) => o.method === 'get')) {
      const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => paths[name]![0]!);
      const res = await fetch(new URL(url, stack.gatewayUrl), {
        headers: { authorization: `Bearer ${alice.token}`, accept: 'application/json' },
      });
      const type = res.headers.get('content-type') ?? '';
      if (res.status >= 300 || !type.startsWith('application/json')) {
        await res.body?.cancel();
        continue;
      }
      checked++;
      const differs = conformance.check(op.component, op.method, op.path, res.status, type, await res.text());
      if (differs) differences.push(differs);
    }
    expect(checked).to.be.greaterThan(20);
    expect(differences).to.deep.equal([]);
  });
});
