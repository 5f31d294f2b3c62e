import { expect } from 'chai';
import { AddressGuard, type Admission, WebhookSender } from '@fieldhouse/webhooks';
import { startWebhookReceiver, type WebhookReceiver } from '@fieldhouse/testkit';

/**
 * The SSRF guard against IANA's special-purpose registries (issue 31): IPv6 forms that embed an
 * IPv4 address are judged by that address, the reserved IPv6 ranges are refused whole, and each
 * form is written compressed and expanded.
 */
describe('webhooks: SSRF guard, IPv4 embedded in IPv6 and reserved ranges (issue 31)', () => {
  const guard = new AddressGuard();

  /** [address, what the guard must say, the form it is]. */
  const table: Array<[string, Admission, string]> = [
    // IPv4
    ['127.0.0.1', 'refused', 'IPv4 loopback'],
    ['10.1.2.3', 'refused', 'IPv4 private'],
    ['169.254.169.254', 'refused', 'IPv4 link-local (cloud metadata)'],
    ['100.64.0.1', 'refused', 'IPv4 shared'],
    ['192.88.99.1', 'refused', 'IPv4 6to4 relay anycast (deprecated)'],
    ['198.18.0.1', 'refused', 'IPv4 benchmarking'],
    ['224.0.0.1', 'refused', 'IPv4 multicast'],
    ['255.255.255.255', 'refused', 'IPv4 broadcast'],
    ['93.184.216.34', 'public', 'IPv4 public'],
    // IPv4-mapped ::ffff:0:0/96: the IPv4 address decides
    ['::ffff:127.0.0.1', 'refused', 'IPv4-mapped, dotted'],
    ['::ffff:7f00:1', 'refused', 'IPv4-mapped, hex'],
    ['0:0:0:0:0:ffff:7f00:1', 'refused', 'IPv4-mapped, expanded'],
    ['0000:0000:0000:0000:0000:FFFF:0A00:0001', 'refused', 'IPv4-mapped 10.0.0.1, expanded, upper case'],
    ['::ffff:a9fe:a9fe', 'refused', 'IPv4-mapped metadata'],
    ['::ffff:93.184.216.34', 'public', 'IPv4-mapped public, dotted'],
    ['0:0:0:0:0:ffff:5db8:d822', 'public', 'IPv4-mapped public, expanded'],
    // IPv4-compatible ::/96 (deprecated): refused whole, whatever it carries
    ['::127.0.0.1', 'refused', 'IPv4-compatible loopback, dotted'],
    ['::7f00:1', 'refused', 'IPv4-compatible loopback, hex'],
    ['0:0:0:0:0:0:a00:1', 'refused', 'IPv4-compatible private, expanded'],
    ['::93.184.216.34', 'refused', 'IPv4-compatible public, dotted'],
    ['0000:0000:0000:0000:0000:0000:5db8:d822', 'refused', 'IPv4-compatible public, expanded'],
    // IPv4-translated ::ffff:0:0:0/96 (SIIT): the IPv4 address decides
    ['::ffff:0:127.0.0.1', 'refused', 'IPv4-translated loopback, dotted'],
    ['::ffff:0:c0a8:101', 'refused', 'IPv4-translated 192.168.1.1, hex'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'refused', 'IPv4-translated metadata, expanded'],
    ['::ffff:0:93.184.216.34', 'public', 'IPv4-translated public, dotted'],
    ['0:0:0:0:ffff:0:5db8:d822', 'public', 'IPv4-translated public, expanded'],
    // NAT64 well-known prefix 64:ff9b::/96: the IPv4 address decides
    ['64:ff9b::127.0.0.1', 'refused', 'NAT64 loopback, dotted'],
    ['64:ff9b::a00:1', 'refused', 'NAT64 10.0.0.1, hex'],
    ['0064:ff9b:0000:0000:0000:0000:a9fe:a9fe', 'refused', 'NAT64 metadata, expanded'],
    ['64:ff9b::93.184.216.34', 'public', 'NAT64 public, dotted'],
    ['64:ff9b:0:0:0:0:5db8:d822', 'public', 'NAT64 public, expanded'],
    ['64:ff9b:1::5db8:d822', 'refused', 'local-use NAT64 64:ff9b:1::/48'],
    // 6to4 2002::/16: the IPv4 address in bits 16-48 decides
    ['2002:7f00:1::', 'refused', '6to4 of 127.0.0.1'],
    ['2002:7f00:0001:0000:0000:0000:0000:0001', 'refused', '6to4 of 127.0.0.1, expanded'],
    ['2002:a9fe:a9fe::1', 'refused', '6to4 of the metadata address'],
    ['2002:c0a8:101:0:0:0:0:1', 'refused', '6to4 of 192.168.1.1, expanded'],
    ['2002:a00:1::1', 'refused', '6to4 of 10.0.0.1'],
    ['2002:5db8:d822::1', 'public', '6to4 of a public address'],
    ['2002:5db8:d822:0:0:0:0:1', 'public', '6to4 of a public address, expanded'],
    // Teredo 2001::/32 (and the rest of 2001::/23): refused whole
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'refused', 'Teredo (public server, obfuscated client)'],
    ['2001::7f00:1', 'refused', 'Teredo, compressed'],
    ['2001:0000:0a00:0001:0000:0000:f5ff:fffe', 'refused', 'Teredo, expanded'],
    ['2001:2::1', 'refused', 'benchmarking 2001:2::/48'],
    // Other reserved IPv6
    ['::1', 'refused', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'refused', 'loopback, expanded'],
    ['::', 'refused', 'unspecified'],
    ['fd00:ec2::254', 'refused', 'unique-local (AWS metadata)'],
    ['fe80::1', 'refused', 'link-local'],
    ['fec0::1', 'refused', 'site-local (deprecated)'],
    ['ff02::1', 'refused', 'multicast'],
    ['100::1', 'refused', 'discard-only'],
    ['2001:db8::1', 'refused', 'documentation'],
    ['3fff::1', 'refused', 'documentation (RFC 9637)'],
    ['5f00::1', 'refused', 'SRv6 SIDs'],
    ['4000::1', 'refused', 'outside global unicast 2000::/3'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public', 'global unicast'],
    ['2A00:1450:4007:080E:0000:0000:0000:200E', 'public', 'global unicast, expanded, upper case'],
    // Not addresses
    ['localhost', 'refused', 'a name'],
    ['', 'refused', 'empty'],
    ['999.1.1.1', 'refused', 'not an IPv4 address'],
    ['fe80::1%eth0', 'refused', 'a zone id'],
  ];

  it('permits and refuses every form of the table as IANA’s registries say', () => {
    const wrong = table
      .filter(([address, expected]) => guard.permits(address) !== (expected !== 'refused'))
      .map(([address, expected, form]) => `${form} ${address} should be ${expected}`);
    expect(wrong).to.deep.equal([]);
    for (const [address, expected] of table) expect(guard.admission(address), address).to.equal(expected);
  });

  it('refuses a URL literal of an embedded private address, and a name resolving to one', () => {
    expect(guard.refusalOfLiteral('[2002:7f00:1::]')).to.equal(
      '2002:7f00:1:: is a loopback, private, link-local or reserved address: deliveries there are not allowed.',
    );
    expect(guard.refusalOfLiteral('[64:ff9b::169.254.169.254]')).to.match(/not allowed/);
    expect(guard.refusalOfLiteral('[2002:5db8:d822::1]')).to.equal(undefined);
    expect(guard.refusalOfResolved('hooks.example.org', ['93.184.216.34', '::ffff:0:a00:1'])).to.equal(
      'hooks.example.org resolves to ::ffff:0:a00:1, which is a loopback, private, link-local or reserved address: deliveries there are not allowed.',
    );
    expect(guard.refusalOfResolved('hooks.example.org', ['93.184.216.34', '2002:5db8:d822::1'])).to.equal(
      undefined,
    );
  });

  it('admits the networks of its allow-list as allowed (an IPv4-mapped form too), and nothing else', () => {
    const loopback = new AddressGuard(['127.0.0.0/8', '::1/128']);
    expect(
      ['127.0.0.1', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:7f00:1', '93.184.216.34'].map((a) =>
        loopback.admission(a),
      ),
    ).to.deep.equal(['allowed', 'allowed', 'allowed', 'allowed', 'public']);
    // Embedding forms other than IPv4-mapped reach the IPv4 address through a translator or a
    // relay, not as the address the allow-list names.
    expect(
      ['10.0.0.1', '2002:7f00:1::', '64:ff9b::7f00:1', '::ffff:0:7f00:1', '::7f00:1'].map((a) =>
        loopback.admission(a),
      ),
    ).to.deep.equal(['refused', 'refused', 'refused', 'refused', 'refused']);
    // A public address stays public inside an allowed network.
    expect(new AddressGuard(['93.184.216.0/24']).admission('93.184.216.34')).to.equal('public');
  });

  it('refuses an allow-list entry that is not a network in CIDR form, naming it', () => {
    for (const entry of ['localhost', '127.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x', '10.0.0.0/'])
      expect(() => new AddressGuard([entry]), entry).to.throw(`Not a network in CIDR form: ${entry}`);
    expect(new AddressGuard(['10.0.0.1']).admission('10.0.0.1')).to.equal('allowed');
  });
});

describe('webhooks: answers of networks opened by WEBHOOK_ALLOWED_NETWORKS are not kept (issue 31)', () => {
  let receiver: WebhookReceiver;
  // As `npm start` configures it: loopback opened, plain http allowed.
  const sender = new WebhookSender({ guard: new AddressGuard(['127.0.0.0/8', '::1/128']), allowHttp: true });
  before(async () => (receiver = await startWebhookReceiver()));
  after(async () => {
    sender.close();
    await receiver.close();
  });

  it('a loopback receiver’s answer keeps its status and duration, and its body is null', async () => {
    receiver.answer('/internal', (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"loopback-only"}'),
    );
    const r = await sender.send(`${receiver.url}/internal`, { 'webhook-id': 'm1' }, '{"a":1}');
    expect(r).to.include({ status: 200, body: null, error: null, blocked: false });
    expect(r.durationMs).to.be.a('number').and.at.least(0);
    expect(receiver.on('/internal').map((x) => x.body)).to.deep.equal(['{"a":1}']);
  });

  it('a failing loopback receiver’s answer is not kept either', async () => {
    receiver.answer('/err', (res) => res.writeHead(500).end('stack trace of a loopback service'));
    const r = await sender.send(`${receiver.url}/err`, {}, '{}');
    expect(r).to.include({ status: 500, body: null, error: null });
  });
});
