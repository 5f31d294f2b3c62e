import { expect } from 'chai';
import { fieldNameFromLabel } from '../../console/src/pages/form-builder/field-name.ts';

/** The collection service's rule for a field name (services/collection/src/domain/field-definition.ts). */
const SERVICE_RULE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

describe('console: a field name derived from its label', () => {
  it('folds accents, lowercases and joins words with _', () => {
    expect(fieldNameFromLabel('Âge du répondant')).to.equal('age_du_repondant');
    expect(fieldNameFromLabel('Œuvre de l’élève — straße')).to.equal('oeuvre_de_l_eleve_strasse');
    expect(fieldNameFromLabel('  Weight (kg)?  ')).to.equal('weight_kg');
    expect(fieldNameFromLabel('Ça coûte combien ?')).to.equal('ca_coute_combien');
  });

  it('never starts with a digit and stays within 100 characters', () => {
    expect(fieldNameFromLabel('1st visit')).to.equal('q_1st_visit');
    const long = fieldNameFromLabel('word '.repeat(60));
    expect(long.length).to.be.at.most(100);
    expect(long).to.match(SERVICE_RULE);
    expect(long.endsWith('_')).to.equal(false);
  });

  it('is empty when the label has no ASCII letter or digit', () => {
    expect(fieldNameFromLabel('')).to.equal('');
    expect(fieldNameFromLabel('?! …')).to.equal('');
    expect(fieldNameFromLabel('名前')).to.equal('');
  });

  it('is unique within the version: _2, _3... after a taken name', () => {
    expect(fieldNameFromLabel('Age', ['age'])).to.equal('age_2');
    expect(fieldNameFromLabel('Age', ['age', 'age_2'])).to.equal('age_3');
    const taken = fieldNameFromLabel('x'.repeat(120));
    expect(taken).to.have.length(100);
    const next = fieldNameFromLabel('x'.repeat(120), [taken]);
    expect(next).to.equal(`${'x'.repeat(98)}_2`);
    expect(next).to.match(SERVICE_RULE);
  });

  it('always gives a name the service accepts (or none)', () => {
    for (const label of ['Âge', '_x', 'a b c', '2024 harvest', 'Ünïcödé 名前 ok', '---', 'Ærø'])
      expect(fieldNameFromLabel(label)).to.satisfy((n: string) => n === '' || SERVICE_RULE.test(n));
  });
});
