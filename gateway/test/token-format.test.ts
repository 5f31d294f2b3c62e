import { expect } from 'chai';
import { generateSecret, hashSecret, parseToken, sameHash } from '../src/identity/token-format.ts';

describe('personal access token format', () => {
  it('generates 40 random alphanumerics plus a CRC32 checksum, parsed back with its id', () => {
    const secret = generateSecret();
    expect(secret).to.match(/^[A-Za-z0-9]{40}[0-9a-f]{8}$/);
    expect(generateSecret()).to.not.equal(secret);
    expect(parseToken(`42|${secret}`)).to.deep.equal({ id: 42, secret });
  });

  it('rejects junk before any lookup: bad shape, bad checksum, bad id', () => {
    const secret = generateSecret();
    const badSum =
      secret.slice(0, 40) + (secret.endsWith('0') ? secret.slice(40, 47) + '1' : secret.slice(40, 47) + '0');
    for (const raw of [
      'abc',
      '1|',
      '|x',
      `|${secret}`,
      '999999|x',
      `1|${badSum}`,
      `01|${secret}`,
      `1|${secret}a`,
      `-1|${secret}`,
      `1|${'x'.repeat(10_240)}`,
      `99999999999999999|${secret}`,
    ]) {
      expect(parseToken(raw), raw.slice(0, 30)).to.equal(null);
    }
  });

  it('compares SHA-256 digests in constant time', () => {
    const h = hashSecret('abc');
    expect(h).to.match(/^[0-9a-f]{64}$/);
    expect(sameHash(h, hashSecret('abc'))).to.equal(true);
    expect(sameHash(h, hashSecret('abd'))).to.equal(false);
    expect(sameHash(h, '')).to.equal(false);
  });
});
