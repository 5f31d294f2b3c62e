import { useState } from 'react';
import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { DeletePollModal } from './DeletePollModal.tsx';
import { PollCard } from './PollCard.tsx';
import { ShareModal } from './ShareModal.tsx';
import { useMyPolls, type Poll } from './use-polls.ts';

/**
 * `/polls`: the signed-in user's polls, newest first, as cards (one column on a phone), with
 * their actions; the public link and QR code in a dialog; deletion after a confirmation.
 */
export function PollsPage() {
  const { t } = useTranslation('polls');
  const [page, setPage] = useState(1);
  const polls = useMyPolls(page);
  const [sharing, setSharing] = useState<Poll | null>(null);
  const [deleting, setDeleting] = useState<Poll | null>(null);

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('list.title')}</Title>
        <Button component={Link} to="/polls/new" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('list.create')}
        </Button>
      </Group>
      {polls.isPending ? (
        <PageLoader />
      ) : polls.error ? (
        <ProblemAlert error={polls.error} />
      ) : polls.data.data.length === 0 ? (
        <EmptyState
          title={t('list.empty')}
          text={t('list.emptyText')}
          action={
            <Button component={Link} to="/polls/new" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.createFirst')}
            </Button>
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {polls.data.data.map((poll) => (
              <PollCard key={poll.id} poll={poll} onShare={setSharing} onDelete={setDeleting} />
            ))}
          </SimpleGrid>
          <PagePicker lastPage={polls.data.pagination.last_page} page={page} onChange={setPage} />
        </>
      )}
      <ShareModal poll={sharing} onClose={() => setSharing(null)} />
      <DeletePollModal poll={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
