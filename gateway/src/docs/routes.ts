import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { ProblemError } from '@fieldhouse/problem';
import type { Upstream } from '../proxy/upstreams.ts';
import { gatewayDocument } from './document.ts';
import { withGatewayAnswers } from './gateway-answers.ts';

/**
 * The JSON document an upstream serves at `path` (`/openapi.json`, `/asyncapi.json`).
 * @throws ProblemError 502 `upstream_unavailable` when the upstream cannot be reached, answers
 * no 2xx within 5 s, or answers something that is not a JSON object.
 */
async function upstreamDocument(u: Upstream, path: string, what: string): Promise<object> {
  const answer = await fetch(new URL(path, u.target), {
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
  const document: unknown = answer?.ok ? await answer.json().catch(() => undefined) : undefined;
  if (typeof document !== 'object' || document === null)
    throw new ProblemError(502, `The ${u.name} service ${what} is unavailable.`, {
      code: 'upstream_unavailable',
    });
  return document;
}

/**
 * `/docs`: Swagger UI with one document per component: `/docs/gateway.json` (identity) and
 * `/docs/<service>.json`, fetched from each service's `/openapi.json` (502 while it is down)
 * with what the gateway itself may answer added to every operation (gateway-answers.ts); and
 * `/docs/<service>.asyncapi.json`, each service's `/asyncapi.json` as it is (the AsyncAPI 3.0
 * document of its outbound webhooks, docs/webhooks.md; 502 while it is down).
 */
export function docsRoutes(upstreams: Upstream[]): Router {
  const router = Router();
  router.get('/docs/gateway.json', (_req, res) => {
    res.json(gatewayDocument);
  });
  for (const u of upstreams) {
    router.get(`/docs/${u.name}.json`, async (_req, res) => {
      res.json(withGatewayAnswers(await upstreamDocument(u, '/openapi.json', 'document')));
    });
    router.get(`/docs/${u.name}.asyncapi.json`, async (_req, res) => {
      res.json(await upstreamDocument(u, '/asyncapi.json', 'AsyncAPI document'));
    });
  }
  const urls = [
    { url: '/docs/gateway.json', name: 'Gateway: identity' },
    ...upstreams.map((u) => ({ url: `/docs/${u.name}.json`, name: `Service: ${u.name}` })),
  ];
  router.use('/docs', swaggerUi.serve);
  router.get(
    '/docs',
    swaggerUi.setup(undefined, { swaggerOptions: { urls }, customSiteTitle: 'Fieldhouse API' }),
  );
  return router;
}
