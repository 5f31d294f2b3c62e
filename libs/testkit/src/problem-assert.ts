import { expect } from 'chai';

/** The parts of an HTTP answer (supertest's `Response`, say) that a problem check reads. */
export interface AnswerLike {
  status: number;
  headers: Record<string, unknown>;
  body: { status?: unknown; errors?: unknown; detail?: unknown };
}

/**
 * Asserts a problem document (RFC 9457, `application/problem+json`) with `status` whose
 * `errors` names `field` (the tests of issue 14's hostile inputs).
 */
export function expectProblemNaming(res: AnswerLike, status: number, field: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
  expect(res.body).to.include({ status });
  expect(res.body.errors, JSON.stringify(res.body)).to.have.property(field);
}

/**
 * Asserts the 422 `webhook_limit_reached` problem of a webhook created past the cap
 * (docs/webhooks.md, "Isolation"), whose `limit` is `cap` and whose detail names it.
 */
export function expectWebhookLimit(res: AnswerLike, cap: number): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
  expect(res.body).to.include({
    status: 422,
    code: 'webhook_limit_reached',
    type: 'urn:fieldhouse:problem:webhook-limit-reached',
    limit: cap,
  });
  expect(res.body.detail).to.match(new RegExp(`already has ${cap} webhooks`));
}
