import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { ProblemError } from '@fieldhouse/problem';
import type { Upstream } from '../proxy/upstreams.ts';
import { gatewayDocument } from './document.ts';
import { withGatewayAnswers } from './gateway-answers.ts';

/**
 * `/docs`: Swagger UI with one document per component: `/docs/gateway.json` (identity) and
 * `/docs/<service>.json`, fetched from each service's `/openapi.json` (502 while it is down)
 * with what the gateway itself may answer added to every operation (gateway-answers.ts).
 */
export function docsRoutes(upstreams: Upstream[]): Router {
  const router = Router();
  router.get('/docs/gateway.json', (_req, res) => {
    res.json(gatewayDocument);
  });
  for (const u of upstreams) {
    router.get(`/docs/${u.name}.json`, async (_req, res) => {
      const answer = await fetch(new URL('/openapi.json', u.target), {
        signal: AbortSignal.timeout(5_000),
      }).catch(() => undefined);
      if (!answer?.ok)
        throw new ProblemError(502, `The ${u.name} service document is unavailable.`, {
          code: 'upstream_unavailable',
        });
      res.json(withGatewayAnswers((await answer.json()) as object));
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
