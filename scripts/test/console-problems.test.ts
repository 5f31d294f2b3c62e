import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { catalogue, COMPONENTS } from '../lib/problem-catalogue.ts';

const root = join(import.meta.dirname, '..', '..');
const messages = (lang: string) =>
  JSON.parse(readFileSync(join(root, 'console/src/locales', lang, 'problems.json'), 'utf8')) as Record<
    string,
    unknown
  >;

/** Every code of the problem catalogue (docs/problem-types.md), from the same source as `npm run docs:problems`. */
const codes = [
  ...new Set(Object.values(COMPONENTS).flatMap((dirs) => catalogue(root, dirs).map((p) => p.code))),
];

describe("the console's problem messages (console/src/locales/*/problems.json)", () => {
  it('reads the whole catalogue', () => {
    // The catalogue's own helpers and tables are read too (otp_invalid, setup_code_used...).
    expect(codes).to.include.members(['validation_failed', 'email_taken', 'otp_invalid', 'setup_code_used']);
    expect(codes.length).to.be.greaterThan(50);
  });

  for (const lang of ['en', 'fr'])
    it(`has ${lang === 'en' ? 'an English' : 'a French'} message for every problem code of the catalogue`, () => {
      const texts = messages(lang);
      const missing = codes.filter((c) => typeof texts[c] !== 'string' || !(texts[c] as string).trim());
      expect(missing, `add to ${lang}/problems.json: ${missing.join(', ')}`).to.deep.equal([]);
    });

  it('is a flat map sorted by code, with the same codes in both languages', () => {
    for (const lang of ['en', 'fr']) {
      const keys = Object.keys(messages(lang));
      expect(keys, `${lang}/problems.json is sorted`).to.deep.equal([...keys].sort());
      for (const [k, v] of Object.entries(messages(lang)))
        expect(v, `${lang} ${k} is a text (a flat map)`).to.be.a('string');
    }
    expect(Object.keys(messages('fr'))).to.deep.equal(Object.keys(messages('en')));
  });

  it('never shows an HTTP status or an English sentence in French', () => {
    const en = messages('en');
    const fr = messages('fr');
    for (const code of Object.keys(en)) {
      expect(fr[code], code).to.not.equal(en[code]);
      expect(fr[code] as string, code).to.not.match(/\b[1-5]\d\d\b/);
    }
  });
});
