import request from 'supertest';
import type { SmtpSink } from '@fieldhouse/testkit';

/** A poll as the API answers it (the fields these tests read). */
export interface TestPoll {
  id: string;
  title: string;
  sections: Array<{ id: string; title: string; options: Array<{ id: string; label: string }> }>;
}

/** Two sections, so a ballot needs one choice in each. */
export const twoSectionPoll = (settings: object = {}, title = 'Team lunch') => ({
  title,
  description: 'Where and when shall we meet?\nOne choice per question.',
  sections: [
    { title: 'Where', options: [{ label: 'Pizzeria' }, { label: 'Noodle bar' }, { label: 'Salad place' }] },
    { title: 'When', options: [{ label: 'Noon' }, { label: '1 pm' }] },
  ],
  settings,
});

/** Creates a poll through the gateway as the holder of `token`; resolves with it. */
export async function createPoll(
  gatewayUrl: string,
  token: string,
  body: object = twoSectionPoll(),
): Promise<TestPoll> {
  const res = await request(gatewayUrl)
    .post('/api/polls')
    .auth(token, { type: 'bearer' })
    .send(body)
    .expect(201);
  return (res.body as { data: TestPoll }).data;
}

/**
 * The 6-digit password e-mailed for the pending vote named `verificationCode` (the 202 vote
 * answer's `verification_code`, which the mail quotes), once the polls e-mail worker sent it.
 */
export async function otpPasswordFor(sink: SmtpSink, verificationCode: string): Promise<string> {
  const mail = await sink.waitFor((m) => m.text.includes(verificationCode), 15_000);
  return /one-time password is (\d{6})/.exec(mail.text)![1]!;
}
