import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import {
  AddressGuard,
  delivered,
  isWebhookSecret,
  newWebhookSecret,
  parseRetrySchedule,
  retryDelayMs,
  signatureHeaders,
  WebhookSender,
} from '@fieldhouse/webhooks';
import { startWebhookReceiver, type WebhookReceiver } from '@fieldhouse/testkit';

describe('webhooks: signing (Standard Webhooks)', () => {
  it('signs like the specification’s published example', () => {
    const headers = signatureHeaders(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    );
    expect(headers).to.deep.equal({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs with both secrets during a rotation, so a receiver holding either verifies', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    expect(isWebhookSecret(current)).to.equal(true);
    const body = '{"type":"ping"}';
    const headers = signatureHeaders('m1', new Date(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).to.have.length(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, { ...headers })).to.deep.equal({ type: 'ping' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).to.throw();
  });
});

describe('webhooks: retry schedule', () => {
  it('parses durations and spreads each delay by ±20 %', () => {
    expect(parseRetrySchedule('5s, 5m,30m,2h,100ms')).to.deep.equal([5000, 300000, 1800000, 7200000, 100]);
    expect(() => parseRetrySchedule('5 minutes')).to.throw(/5 minutes/);
    expect(retryDelayMs([1000, 2000], 1, () => 0)).to.equal(800);
    expect(retryDelayMs([1000, 2000], 2, () => 1)).to.equal(2400);
    expect(retryDelayMs([1000, 2000], 3)).to.equal(undefined);
  });
});

describe('webhooks: SSRF guard', () => {
  const guard = new AddressGuard();
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
  ])
    it(`refuses ${address}`, () => expect(guard.permits(address)).to.equal(false));
  for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:5db8:d822'])
    it(`permits ${address}`, () => expect(guard.permits(address)).to.equal(true));
  it('permits the networks of its allow-list, and only those', () => {
    const loopback = new AddressGuard(['127.0.0.0/8', '::1/128']);
    expect(loopback.permits('127.0.0.1')).to.equal(true);
    expect(loopback.permits('::1')).to.equal(true);
    expect(loopback.permits('10.0.0.1')).to.equal(false);
    expect(() => new AddressGuard(['localhost'])).to.throw(/CIDR/);
  });
});

describe('webhooks: sender (real loopback receivers)', () => {
  let receiver: WebhookReceiver;
  const allowed = new WebhookSender({
    guard: new AddressGuard(['127.0.0.0/8']),
    allowHttp: true,
    timeoutMs: 1500,
  });
  const guarded = new WebhookSender({ guard: new AddressGuard(), allowHttp: true, timeoutMs: 1500 });
  before(async () => (receiver = await startWebhookReceiver()));
  after(async () => {
    allowed.close();
    guarded.close();
    await receiver.close();
  });

  it('posts the exact body with the headers and reports the answer', async () => {
    receiver.answer('/ok', (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
    const r = await allowed.send(`${receiver.url}/ok`, { 'webhook-id': 'm1' }, '{"a":1}');
    // Loopback is admitted only by the allow-list: its answer's body is not kept (issue 31).
    expect(r).to.include({ status: 200, body: null, error: null, blocked: false });
    expect(delivered(r)).to.equal(true);
    const got = receiver.on('/ok')[0]!;
    expect(got.body).to.equal('{"a":1}');
    expect(got.headers).to.include({ 'webhook-id': 'm1', 'content-type': 'application/json' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    receiver.answer('/moved', (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end());
    const r = await allowed.send(`${receiver.url}/moved`, {}, '{}');
    expect(r.status).to.equal(302);
    expect(delivered(r)).to.equal(false);
    expect(receiver.received.filter((x) => x.path === '/')).to.have.length(0);
  });

  it('gives up on a receiver that never answers at the time limit', async () => {
    receiver.answer('/hang', 'hang');
    const r = await allowed.send(`${receiver.url}/hang`, {}, '{}');
    expect(r.status).to.equal(null);
    expect(r.error).to.match(/within 1.5 s/);
    // It waited for the limit (a loaded machine may take longer to notice: no upper bound).
    expect(r.durationMs).to.be.at.least(1400);
  });

  it('reads at most the cap of a huge answer', async () => {
    receiver.answer('/huge', (res) => {
      res.writeHead(200);
      const mb = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 50; i++) res.write(mb);
      res.end();
    });
    const r = await allowed.send(`${receiver.url}/huge`, {}, '{}');
    expect(r).to.include({ status: 200, error: null, body: null });
  });

  for (const target of [
    'http://127.0.0.1:9/x',
    'http://[::1]:9/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost:9/x',
  ])
    it(`refuses ${target} when loopback and private networks are not allowed`, async () => {
      const r = await guarded.send(target, {}, '{}');
      expect(r).to.include({ status: null, blocked: true });
      expect(r.error).to.match(/not allowed/);
    });

  it('refuses plain http unless allowed', async () => {
    const httpsOnly = new WebhookSender({ guard: new AddressGuard(['127.0.0.0/8']) });
    const r = await httpsOnly.send(`${receiver.url}/ok`, {}, '{}');
    httpsOnly.close();
    expect(r).to.include({ blocked: true });
    expect(r.error).to.match(/https/);
  });
});
