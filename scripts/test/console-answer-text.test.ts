import { expect } from 'chai';
import { answerText, dateTimeText } from '../../console/src/pages/submissions/values.ts';
import type { Field } from '../../console/src/pages/collection/types.ts';

/** The submissions table's text of a date-time answer (issue 35): the collector's wall-clock time and offset. */
describe('console: a date-time answer as text', () => {
  it('keeps the wall-clock time written with the offset, in the reader language', () => {
    expect(dateTimeText('2031-06-12T19:00:00.000+02:00', 'en-GB')).to.equal('12 Jun 2031, 19:00 (UTC+02:00)');
    expect(dateTimeText('2031-06-12T19:00:00+02:00', 'fr')).to.equal('12 juin 2031, 19:00 (UTC+02:00)');
    expect(dateTimeText('2031-06-12T07:05:30-05:00', 'en-GB')).to.equal('12 Jun 2031, 07:05:30 (UTC-05:00)');
    expect(dateTimeText('2031-01-02T00:00Z', 'en-GB')).to.equal('2 Jan 2031, 00:00 (UTC)');
  });

  it('gives back text that is not a date-time as it is, and answerText uses it for datetime fields', () => {
    expect(dateTimeText('soon', 'en')).to.equal('soon');
    const field = { type: 'datetime' } as Field;
    expect(answerText(field, '2031-06-12T19:00:00+02:00', 'en-GB', 'photo')).to.equal(
      '12 Jun 2031, 19:00 (UTC+02:00)',
    );
    expect(answerText(field, null, 'en-GB', 'photo')).to.equal('');
  });
});
