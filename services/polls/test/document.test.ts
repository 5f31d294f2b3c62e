import { expect } from 'chai';
import { requireUser } from '@fieldhouse/internal-auth';
import { pollsDocument } from '../src/http/document.ts';
import { pollsRouteSpecs } from '../src/http/router.ts';

type Operation = { responses: Record<string, { headers?: Record<string, unknown> }>; parameters?: unknown[] };
const operations = () =>
  Object.entries(pollsDocument.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as unknown as Operation })),
  );

describe('polls OpenAPI document (generated from the route declarations)', () => {
  it('names path parameters {poll_id}, {comment_id}, {section_id}, {webhook_id}, {delivery_id}, and {invitee_id}, never a bare {id}', () => {
    const params = new Set(Object.keys(pollsDocument.paths).flatMap((p) => p.match(/\{[^}]+\}/g) ?? []));
    expect([...params].sort()).to.deep.equal([
      '{comment_id}',
      '{delivery_id}',
      '{invitee_id}',
      '{poll_id}',
      '{section_id}',
      '{webhook_id}',
    ]);
  });

  it('declares the 503 store_unavailable problem with Retry-After on every operation', () => {
    for (const { path, method, op } of operations())
      expect(op.responses['503']?.headers, `${method} ${path}`).to.have.property('Retry-After');
  });

  it('documents maps of ids by patternProperties, without a property named after the RegExp', () => {
    const json = JSON.stringify(pollsDocument);
    expect(json).to.contain('patternProperties');
    expect(json).to.not.match(/"\/[^"]*\/":/);
  });

  it('runs the sign-in check first on every route not open to anonymous callers', () => {
    for (const spec of pollsRouteSpecs) {
      const signedInOnly = (spec.access ?? 'authenticated') === 'authenticated';
      const checks = spec.middleware?.(undefined as never) ?? [];
      expect(checks[0] === requireUser, `${spec.method} ${spec.path}`).to.equal(signedInOnly);
    }
  });
});
