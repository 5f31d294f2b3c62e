import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { fetchMe, ME_KEY } from '../../auth/session.ts';
import { signInPathFor } from '../../auth/sign-in-path.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { availabilityOf } from '../poll-public/availability.ts';
import { useMyBallot } from '../poll-public/my-ballot-query.ts';
import { usePublicPoll } from '../poll-public/poll-query.ts';
import { PollLoadError } from '../poll-public/PollLoadError.tsx';
import type { VoteAnswer } from '../poll-public/types.ts';
import { pendingVotes, type PendingVote } from './pending-vote.ts';
import { PollHeader } from './PollHeader.tsx';
import { PollUnavailable } from './PollUnavailable.tsx';
import { useVerify, useVote } from './use-vote.ts';
import { VoteForm, type VoteFormValues } from './VoteForm.tsx';

// Shown only after a vote, for polls confirming votes by e-mail, or to those who voted: lazy
// chunks, outside the page's initial JavaScript (scripts/page-budget.ts).
const OtpStep = lazy(() => import('./OtpStep.tsx').then((m) => ({ default: m.OtpStep })));
const VoteCounted = lazy(() => import('./VoteCounted.tsx').then((m) => ({ default: m.VoteCounted })));
const AlreadyVoted = lazy(() => import('./AlreadyVoted.tsx'));
// Polls for invitees (the personal link) or with anonymous ballots: the ballot and its receipt.
const InvitedBallot = lazy(() => import('./InvitedBallot.tsx'));

type Step =
  { step: 'form' } | { step: 'otp'; pending: PendingVote } | { step: 'counted'; answer: VoteAnswer };

/**
 * `/p/:pollId`: the public voting page, what voters reach from a shared link (mobile first, its
 * initial JavaScript within the budget of scripts/vote-budget.ts). Shows the poll, then the
 * ballot → (on polls requiring verification) the one-time-password step → "vote counted" with
 * the votes left and a link to the live results. A voter who already voted (`GET .../my-ballot`:
 * the signed-in user, else this browser's fingerprint) sees "you have voted" and their ballot on
 * arriving, with "Vote again" while votes remain; if that read fails the form shows as before.
 * On a poll for invitees the personal link's state decides (InvitedBallot: "you have voted",
 * withdrawn or unknown before any ballot, even once the poll is closed). Every refusal appears
 * next to its button.
 */
export function VotePage() {
  const { pollId = '' } = useParams();
  const { t } = useTranslation('vote');
  const location = useLocation();
  const poll = usePublicPoll(pollId);
  const settings = poll.data?.settings;
  const needsMe = !!settings && (settings.require_verification || settings.access === 'authenticated');
  const me = useQuery({
    queryKey: ME_KEY,
    queryFn: fetchMe,
    enabled: needsMe,
    staleTime: 60_000,
    retry: false,
  });
  const ballot = useMyBallot(pollId);
  const [ballotSeen, setBallotSeen] = useState(false);
  const vote = useVote(pollId);
  const verify = useVerify(pollId);
  const [step, setStep] = useState<Step>(() => {
    const pending = pendingVotes.load(pollId);
    return pending ? { step: 'otp', pending } : { step: 'form' };
  });
  const [values, setValues] = useState<VoteFormValues>({
    votes: {},
    answers: {},
    voterName: '',
    voterEmail: '',
  });
  const shownAt = useRef(0);
  const formVisible = step.step === 'form' && !!poll.data;
  useEffect(() => {
    if (formVisible) shownAt.current = Date.now();
  }, [formVisible]);

  if (poll.isPending || ballot.isPending || (needsMe && me.isPending)) return <PageLoader />;
  if (poll.error) return <PollLoadError error={poll.error} ns="vote" onRetry={() => void poll.refetch()} />;
  const data = poll.data;
  const availability = availabilityOf(data);
  const signedOut = me.data === null;
  const needsEmail = data.settings.require_verification && signedOut;

  const held = (answer: VoteAnswer, sent: VoteFormValues) => {
    const pending: PendingVote = {
      code: answer.verification_code ?? '',
      email: needsEmail ? sent.voterEmail.trim() : (me.data?.email ?? undefined),
      sentAt: Date.now(),
      votes: sent.votes,
      answers: sent.answers,
      voterName: sent.voterName,
    };
    pendingVotes.save(pollId, pending);
    verify.reset();
    setStep({ step: 'otp', pending });
  };
  const send = (sent: VoteFormValues) => {
    setValues(sent);
    vote.mutate(
      {
        votes: sent.votes,
        answers: sent.answers,
        voterName: sent.voterName,
        voterEmail: needsEmail ? sent.voterEmail : undefined,
        timeSpent: (Date.now() - shownAt.current) / 1000,
      },
      {
        onSuccess: (answer) => {
          setBallotSeen(true);
          if (answer.requires_verification) held(answer, sent);
          else setStep({ step: 'counted', answer });
        },
      },
    );
  };

  const unavailable =
    availability.kind === 'open' ? null : <PollUnavailable availability={availability} pollId={pollId} />;
  let body;
  if (step.step === 'counted')
    body = (
      <VoteCounted
        answer={step.answer}
        pollId={pollId}
        onVoteAgain={() => {
          vote.reset();
          setStep({ step: 'form' });
        }}
      />
    );
  else if (step.step === 'otp')
    body = (
      <OtpStep
        key={step.pending.code}
        pending={step.pending}
        verifying={verify.isPending}
        verifyError={verify.error}
        onVerify={(password) =>
          verify.mutate(
            { code: step.pending.code, password },
            {
              onSuccess: (answer) => {
                setBallotSeen(true);
                pendingVotes.clear(pollId);
                setStep({ step: 'counted', answer });
              },
            },
          )
        }
        resending={vote.isPending}
        resendError={vote.error}
        onResend={() =>
          send({
            votes: step.pending.votes,
            answers: step.pending.answers ?? {},
            voterName: step.pending.voterName,
            voterEmail: step.pending.email ?? '',
          })
        }
      />
    );
  else if (ballot.data?.voted && !ballotSeen)
    body = <AlreadyVoted ballot={ballot.data} poll={data} onVoteAgain={() => setBallotSeen(true)} />;
  else if (data.settings.voters === 'invited' || (!unavailable && data.settings.anonymous && !signedOut))
    // A personal link says "you have voted" even once the poll is no longer open.
    body = <InvitedBallot poll={data} VoteForm={VoteForm} unavailable={unavailable} />;
  else if (unavailable) body = unavailable;
  else if (data.settings.access === 'authenticated' && signedOut)
    body = (
      <Alert color="blue" variant="light" title={t('signedInOnly.title')}>
        <Stack gap="sm" align="flex-start">
          {t('signedInOnly.body')}
          <Button component={Link} to={signInPathFor(location)}>
            {t('problem.signIn')}
          </Button>
        </Stack>
      </Alert>
    );
  else
    body = (
      <VoteForm
        poll={data}
        needsEmail={needsEmail}
        initial={values}
        pending={vote.isPending}
        error={vote.error}
        onVote={send}
      />
    );

  return (
    <Stack gap="xl">
      <PollHeader poll={data} />
      <Suspense fallback={<PageLoader />}>{body}</Suspense>
    </Stack>
  );
}
