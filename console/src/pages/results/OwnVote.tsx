import { Alert, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Results } from '../poll-public/types.ts';

/**
 * Results this reader may not see (`stats_hidden`, docs/polls.md, "Result visibility": others
 * see only their own latest vote): says why, by the poll's `results_visibility` (after voting,
 * after the poll closes, the organiser only), and lists this reader's choices, if any.
 */
export function OwnVote({ results }: { results: Results }) {
  const { t } = useTranslation('results');
  const mine = results.my_vote ?? {};
  // `always` never hides: a hidden `always` can only be a poll changed meanwhile; say the general thing.
  const v = results.poll.settings.results_visibility;
  const mode = v === 'always' ? 'owner_only' : v;
  const chosen = results.sections.flatMap((s) => {
    const option = s.options.find((o) => o.id === mine[s.id]);
    return option ? [{ section: s.title, option: option.label, id: s.id }] : [];
  });
  return (
    <Alert color="gray" variant="light" title={t(`hidden.${mode}.title`)} data-testid="results-hidden">
      <Text size="sm">{t(`hidden.${mode}.body`)}</Text>
      {chosen.length ? (
        <>
          <Text size="sm" fw={600} mt="sm">
            {t('hidden.yourVote')}
          </Text>
          <List size="sm">
            {chosen.map((c) => (
              <List.Item key={c.id}>
                {c.section}: {c.option}
              </List.Item>
            ))}
          </List>
        </>
      ) : (
        <Text size="sm" mt="sm">
          {t('hidden.noVote')}
        </Text>
      )}
    </Alert>
  );
}
