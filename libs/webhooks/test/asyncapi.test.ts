import { expect } from 'chai';
import {
  PING_KIND,
  signatureHeaders,
  webhookAsyncApiDocument,
  webhookKindDocs,
  type AsyncApiDocument,
  type WebhookKindDoc,
} from '@fieldhouse/webhooks';
import { expectPayloadMatchesAsyncApi, expectValidAsyncApi } from '@fieldhouse/testkit';

/** Two kinds of a made-up service, as a service documents its own. */
const sample: WebhookKindDoc[] = webhookKindDocs({
  'thing.created': {
    summary: 'A thing was made.',
    description: 'Sent when a thing is made.',
    data: {
      type: 'object',
      required: ['thing', 'links'],
      properties: {
        thing: {
          type: 'object',
          required: ['id', 'name', 'made_at'],
          properties: {
            id: { type: 'integer' },
            name: { type: ['string', 'null'] },
            made_at: { type: 'string', format: 'date-time' },
          },
        },
        links: { type: 'object', required: ['thing'], properties: { thing: { type: 'string' } } },
      },
    },
  },
  'thing.checked_in': {
    summary: 'A thing was checked in.',
    description: 'Sent when a thing is checked in.',
    data: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date-time' } } },
  },
});

const build = (kinds = sample) =>
  webhookAsyncApiDocument({ title: 'Things, webhooks', version: '1.0.0', description: 'Things.', kinds });

const body = (type: string, data: unknown) => ({ type, timestamp: '2030-01-02T03:04:05.678Z', data });
const thing = { thing: { id: 1, name: null, made_at: '2030-01-02T03:04:05.678Z' }, links: { thing: '/t/1' } };

describe('webhooks: the AsyncAPI document of a service (webhookAsyncApiDocument)', () => {
  let document: AsyncApiDocument;
  before(() => {
    document = build();
  });

  it('is an AsyncAPI 3.0.0 document the official parser accepts, with one send channel per kind and ping', async () => {
    const parsed = await expectValidAsyncApi(document);
    expect(parsed.version()).to.equal('3.0.0');
    const addresses = parsed
      .channels()
      .all()
      .map((c) => c.address());
    expect(addresses).to.deep.equal(['thing.created', 'thing.checked_in', PING_KIND]);
    const operations = parsed.operations().all();
    expect(operations.map((o) => o.id())).to.deep.equal([
      'sendThingCreated',
      'sendThingCheckedIn',
      'sendPing',
    ]);
    expect(operations.map((o) => o.channels().all()[0]!.address())).to.deep.equal(addresses);
    for (const o of operations) {
      expect(o.action(), o.id()).to.equal('send');
      expect(o.bindings().get('http')?.value(), o.id()).to.include({ method: 'POST' });
      const schemes = o.security().flatMap((r) => r.all().map((s) => s.scheme()));
      expect(schemes.map((s) => [s.type(), s.name(), s.in()])).to.deep.equal([
        ['httpApiKey', 'webhook-signature', 'header'],
      ]);
      const [message] = o.messages().all();
      expect(message!.headers()!.required()).to.have.members([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(message!.payload()!.required()).to.deep.equal(['type', 'timestamp', 'data']);
      expect(message!.payload()!.properties()!.type!.const()).to.equal(o.channels().all()[0]!.address());
    }
  });

  it('documents the signature headers as libs/webhooks signs them, during a rotation too', () => {
    const body1 = JSON.stringify(body('thing.created', thing));
    for (const secrets of [
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_dGVzdA=='],
    ]) {
      const headers = signatureHeaders('9a1c2f1e-2b4e-4a4a-9d1e-0b5a3c2d1e0f', new Date(), body1, secrets);
      expectPayloadMatchesAsyncApi(document, 'thing.created', JSON.parse(body1), headers);
    }
    expect(() =>
      expectPayloadMatchesAsyncApi(document, 'thing.created', body('thing.created', thing), {
        'webhook-id': 'm',
        'webhook-timestamp': 'yesterday',
        'webhook-signature': 'v1,abc=',
      }),
    ).to.throw(/webhook-timestamp/);
  });

  it('checks a body against its kind: envelope, data, formats, nulls, and fields it does not describe', () => {
    expectPayloadMatchesAsyncApi(document, 'thing.created', body('thing.created', thing));
    expectPayloadMatchesAsyncApi(
      document,
      'thing.checked_in',
      body('thing.checked_in', { at: '2030-01-02T03:04:05Z' }),
    );
    expectPayloadMatchesAsyncApi(
      document,
      PING_KIND,
      body(PING_KIND, { subscription_id: '9a1c2f1e-2b4e-4a4a-9d1e-0b5a3c2d1e0f' }),
    );
    const refused: Array<[string, unknown, RegExp]> = [
      ['thing.created', body('thing.checked_in', thing), /type/],
      ['thing.created', { ...body('thing.created', thing), timestamp: 'yesterday' }, /date-time/],
      ['thing.created', body('thing.created', { ...thing, thing: { ...thing.thing, id: '1' } }), /integer/],
      ['thing.created', body('thing.created', { links: thing.links }), /thing/],
      ['thing.created', body('thing.created', { ...thing, extra: true }), /additional/],
      [
        'thing.created',
        body('thing.created', { ...thing, thing: { ...thing.thing, colour: 'red' } }),
        /additional/,
      ],
      [PING_KIND, body(PING_KIND, { subscription_id: 'not-a-uuid' }), /uuid/],
      ['thing.deleted', body('thing.deleted', {}), /no message payload/],
    ];
    for (const [kind, payload, why] of refused)
      expect(() => expectPayloadMatchesAsyncApi(document, kind, payload), JSON.stringify(payload)).to.throw(
        why,
      );
  });

  it('leaves the served document open to new fields (the checks close their own copy)', () => {
    expectPayloadMatchesAsyncApi(document, 'thing.created', body('thing.created', thing));
    const data = document.channels['thing.created']!.messages['thing.created']!.payload.properties as {
      data: object;
    };
    expect(data.data).to.not.have.property('additionalProperties');
    expect(document).to.deep.equal(build());
  });

  it('is refused by the parser when a kind’s schema is not JSON Schema, and refuses a kind listed twice or ping', async () => {
    const broken = build([{ ...sample[0]!, data: { type: 'thing' } }]);
    let failure: unknown;
    await expectValidAsyncApi(broken).catch((err: unknown) => (failure = err));
    expect(String(failure)).to.match(/errors and warnings/);
    expect(() => build([sample[0]!, sample[0]!])).to.throw(/twice: thing.created/);
    expect(() => build([{ ...sample[1]!, kind: PING_KIND }])).to.throw(/twice: ping/);
  });
});
