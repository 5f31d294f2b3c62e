import { Alert, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Results } from '../poll-public/types.ts';

/**
 * Results whose statistics the owner keeps private (`stats_hidden`, docs/polls.md: others see
 * only their own latest vote): says so, and lists this reader's choices, if any.
 */
export function OwnVote({ results }: { results: Results }) {
  const { t } = useTranslation('results');
  const mine = results.my_vote ?? {};
  const chosen = results.sections.flatMap((s) => {
    const option = s.options.find((o) => o.id === mine[s.id]);
    return option ? [{ section: s.title, option: option.label, id: s.id }] : [];
  });
  return (
    <Alert color="gray" variant="light" title={t('hidden.title')}>
      <Text size="sm">{t('hidden.body')}</Text>
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
