import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { createKnex } from '@fieldhouse/db';
import {
  knexWebhookRepository,
  mongoWebhookRepository,
  SubscriptionLimitError,
  type WebhookRepository,
} from '@fieldhouse/webhooks';
import { backingUrl } from '@fieldhouse/testkit';
import { mongoBackend, postgresBackend } from './backends.ts';

/**
 * The cap on a scope's subscriptions (issue 31) against creations racing from two processes:
 * two repositories (two connection pools; in MongoDB, two in-process queues) on one database.
 */
describe('webhooks: the subscription cap against creations from two processes', function () {
  this.timeout(60_000);
  const LIMIT = 5;

  const race = async (a: WebhookRepository, b: WebhookRepository, scope: Record<string, number>) => {
    const results = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? a : b).insert(
          scope,
          { url: `https://hooks.example.test/${i}`, events: ['thing.done'] },
          1,
          {},
          LIMIT,
        ),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect(r.reason).to.be.instanceOf(SubscriptionLimitError);
    return { created: results.length - refused.length, stored: (await a.list(scope)).length };
  };

  it('PostgreSQL: exactly the cap is stored (the scope’s advisory lock)', async () => {
    const backend = await postgresBackend();
    const other = createKnex(backend.url);
    try {
      const { created, stored } = await race(backend.repo, knexWebhookRepository(other), { tenant_id: 1 });
      expect({ created, stored }).to.deep.equal({ created: LIMIT, stored: LIMIT });
    } finally {
      await other.destroy();
      await backend.close();
    }
  });

  it('MongoDB: exactly the cap is stored (the scope’s lease document)', async () => {
    const backend = await mongoBackend();
    const client = await MongoClient.connect(await backingUrl('mongo'));
    try {
      const { created, stored } = await race(
        backend.repo,
        mongoWebhookRepository(client.db(backend.dbName)),
        {
          tenant_id: 1,
        },
      );
      expect({ created, stored }).to.deep.equal({ created: LIMIT, stored: LIMIT });
    } finally {
      await client.close();
      await backend.close();
    }
  });
});
