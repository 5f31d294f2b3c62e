import { expect } from 'chai';
import { loadPollsConfig } from '../src/config.ts';

describe('polls: configuration', () => {
  it('defaults to the documented port and settings (README, docs/polls.md)', () => {
    const c = loadPollsConfig({});
    expect(c).to.include({
      PORT: 8082,
      OTP_TTL_SECONDS: 600,
      OTP_MAX_ATTEMPTS: 5,
      COMMENTS_PER_MINUTE: 10,
      REACTIONS_PER_MINUTE: 30,
      SSE_HEARTBEAT_MS: 15_000,
      MONGO_MAX_POOL_SIZE: 16,
    });
  });

  it('refuses settings out of range, naming each', () => {
    expect(() => loadPollsConfig({ OTP_MAX_ATTEMPTS: '32', OTP_TTL_SECONDS: '1' }))
      .to.throw()
      .with.property('variables')
      .that.has.members(['OTP_MAX_ATTEMPTS', 'OTP_TTL_SECONDS']);
  });
});
