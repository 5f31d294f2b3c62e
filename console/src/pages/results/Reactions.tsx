import { useState } from 'react';
import { Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  IconConfetti,
  IconFlame,
  IconHeart,
  IconMoodAngry,
  IconMoodSad,
  IconMoodSurprised,
  IconMoodXd,
  IconThumbUp,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, pollsApi } from '../../api/client.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { ReactionType, Results } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';
import { myReactions } from './my-reaction.ts';
import { resultsKey } from './use-results.ts';

/**
 * The eight reaction types of docs/polls.md, in the API's order, with their icons (icons rather
 * than emoji: they look the same on every device, with or without an emoji font).
 */
const REACTIONS: ReadonlyArray<[ReactionType, typeof IconThumbUp]> = [
  ['like', IconThumbUp],
  ['love', IconHeart],
  ['haha', IconMoodXd],
  ['wow', IconMoodSurprised],
  ['sad', IconMoodSad],
  ['angry', IconMoodAngry],
  ['fire', IconFlame],
  ['clap', IconConfetti],
];

/**
 * The reactions with their counts (`reactions_summary`). Pressing one sends
 * `POST /api/polls/{poll_id}/react` `{reaction_type, voter_fingerprint}`; one reaction per voter,
 * so another type replaces it and its count moves (the answer's summary replaces the shown one).
 * The reader's current reaction is pressed (`aria-pressed`). Refusals (403
 * `reactions_disabled`, 429 with its wait) show under the buttons.
 */
export function Reactions({ results, pollId }: { results: Results; pollId: string }) {
  const { t } = useTranslation('results');
  const client = useQueryClient();
  const [mine, setMine] = useState(() => myReactions.get(pollId));
  const react = useMutation({
    meta: { signInOn401: false },
    mutationFn: async (type: ReactionType) =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/react', {
            params: { path: { poll_id: pollId } },
            body: { reaction_type: type, voter_fingerprint: voterFingerprint() },
          }),
        )
      ).data,
    onSuccess: (answer) => {
      myReactions.set(pollId, answer.reaction_type);
      setMine(answer.reaction_type);
      client.setQueryData<Results>(
        resultsKey(pollId),
        (old) =>
          old && {
            ...old,
            reactions_summary: answer.reactions_summary,
            reactions_total: answer.reactions_total,
          },
      );
    },
  });
  const enabled = results.poll.settings.allow_reactions;
  return (
    <Stack gap="sm" component="section" aria-labelledby="reactions-title">
      <Title order={2} size="h3" id="reactions-title">
        {t('reactions.title')}
      </Title>
      {!enabled ? (
        <Text size="sm" c="dimmed">
          {t('reactions.disabled')}
        </Text>
      ) : null}
      <Group gap="xs" role="group" aria-labelledby="reactions-title">
        {REACTIONS.map(([type, Icon]) => {
          const count = results.reactions_summary[type];
          return (
            <Button
              key={type}
              variant={mine === type ? 'filled' : 'default'}
              radius="xl"
              size="compact-md"
              aria-pressed={mine === type}
              title={t(`reactions.types.${type}`)}
              disabled={!enabled}
              loading={react.isPending && react.variables === type}
              onClick={() => react.mutate(type)}
              data-testid={`reaction-${type}`}
            >
              <VisuallyHidden>{t(`reactions.types.${type}`)} </VisuallyHidden>
              <Icon size={18} aria-hidden stroke={1.8} />
              <Text span ml={6} size="sm" fw={600}>
                {count}
              </Text>
            </Button>
          );
        })}
      </Group>
      <ProblemAlert error={react.error} />
    </Stack>
  );
}
