/**
 * Replicas scenario `revocation`: a token revoked through one gateway is refused by the other on
 * the very next request, although that other gateway had just accepted it (and holds it in its
 * token cache): revocation evicts it on every replica before the DELETE is answered
 * (gateway/src/identity/token-cache.ts). Repeated in both directions.
 */
import { Api } from '../lib/http.ts';
import { count, tally } from '../lib/replicas.ts';
import type { Scenario } from '../lib/scenario.ts';

const ROUNDS = 50;

export const revocation: Scenario = {
  name: 'revocation',
  title: 'a token revoked through one gateway is refused by the other on the next request',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const [g1, g2] = stack.namesOf('gateway');
    const refused = new Map<string, number>();
    const failures: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [revoker, other] = i % 2 === 0 ? [g1!, g2!] : [g2!, g1!];
      const created = await new Api(stack.urlOf(revoker), { token: fx.user.token }).expect(
        201,
        'POST',
        '/api/v1/tokens',
        { name: `revocation ${i}` },
      );
      const token = created.token as string;
      const id = created.data.id as number;
      const onRevoker = new Api(stack.urlOf(revoker), { token });
      const onOther = new Api(stack.urlOf(other), { token });
      // Both gateways accept it (and cache it) first.
      const before = [
        await onOther.get('/api/v1/me'),
        await onRevoker.get('/api/v1/me'),
        await onOther.get('/api/v1/me'),
      ];
      const revoked = await onRevoker.send('DELETE', `/api/v1/tokens/${id}`);
      const after = await onOther.get('/api/v1/me');
      count(refused, `${after.status}`);
      if (before.some((b) => b.status !== 200) || revoked.status !== 204 || after.status !== 401)
        failures.push(
          `round ${i}: before ${before.map((b) => b.status).join('/')}, revoke on ${revoker} ${revoked.status}, next on ${other} ${after.status}`,
        );
      onRevoker.close();
      onOther.close();
    }
    report.check(
      failures.length === 0,
      `${ROUNDS} tokens accepted by both gateways, revoked through one, the other's next request answered: ${tally(refused)}` +
        (failures.length ? `; ${failures.slice(0, 3).join('; ')}` : ''),
    );
  },
};
