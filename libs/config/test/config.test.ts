import { expect } from 'chai';
import { ConfigError, Joi, csvList, loadConfig } from '@fieldhouse/config';

describe('config', () => {
  const schema = Joi.object<{ PORT: number; URL: string; LIST: string[]; FLAG: boolean }>({
    PORT: Joi.number().port().default(8080),
    URL: Joi.string().uri().required(),
    LIST: csvList.default([]),
    FLAG: Joi.boolean().default(false),
  });

  it('converts values and applies defaults', () => {
    const c = loadConfig(schema, { URL: 'http://x', LIST: ' a, b ,,c', FLAG: 'true' });
    expect(c).to.deep.include({ PORT: 8080, URL: 'http://x', LIST: ['a', 'b', 'c'], FLAG: true });
  });

  it('fails fast naming every wrong variable at once', () => {
    try {
      loadConfig(schema, { PORT: 'eighty', FLAG: 'maybe' });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as ConfigError).variables).to.have.members(['PORT', 'URL', 'FLAG']);
      expect((err as Error).message)
        .to.contain('PORT')
        .and.contain('URL')
        .and.contain('FLAG');
    }
  });
});
