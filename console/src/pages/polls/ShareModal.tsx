import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../../components/CopyValue.tsx';
import { ShareLinkModal } from '../../components/ShareLinkModal.tsx';
import { publicLinkOf, type Poll } from './use-polls.ts';

/** Escapes text for an HTML attribute value in double quotes. */
const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The `<iframe>` that shows a poll's embed page (`/p/{poll_id}/embed`: live results, and voting
 * where the poll allows it; docs/polls.md, "Embedding") on another site, full width, 480 px high.
 */
const embedSnippetOf = (poll: Pick<Poll, 'id' | 'title'>) =>
  `<iframe src="${attribute(`${publicLinkOf(poll.id)}/embed`)}" title="${attribute(poll.title)}" ` +
  'width="100%" height="480" style="border:0;max-width:100%" loading="lazy"></iframe>';

/** The embed code with its copy button, and which sites may show it (the poll's `embed_origins`). */
function EmbedCode({ poll }: { poll: Poll }) {
  const { t } = useTranslation('polls');
  const origins = poll.settings.embed_origins;
  return (
    <Stack gap="xs" w="100%" component="section" aria-labelledby="embed-code-title">
      <Title order={2} size="h5" id="embed-code-title">
        {t('share.embedTitle')}
      </Title>
      <CopyValue
        value={embedSnippetOf(poll)}
        copyLabel={t('share.embedCopy')}
        copiedLabel={t('share.copied')}
        testId="embed-snippet"
      />
      <Text size="xs" c="dimmed">
        {t('share.embedHint')}
      </Text>
      <Text size="xs" data-testid="embed-allowed" style={{ overflowWrap: 'anywhere' }}>
        {origins.length ? t('share.embedAllowed', { origins: origins.join(', ') }) : t('share.embedNone')}
      </Text>
    </Stack>
  );
}

/**
 * The poll's public link (`/p/{poll_id}`) with a copy button, and its QR code to show on a
 * screen or print, downloadable as SVG or PNG (the shared {@link ShareLinkModal}); then the
 * `<iframe>` code that embeds its live results on the sites its settings allow.
 */
export function ShareModal({ poll, onClose }: { poll: Poll | null; onClose: () => void }) {
  const { t } = useTranslation('polls');
  const link = poll ? publicLinkOf(poll.id) : null;
  return (
    <ShareLinkModal
      link={link}
      file={poll ? `poll-${poll.id}` : 'poll'}
      onClose={onClose}
      testIds={{ qr: 'poll-qr', link: 'poll-link' }}
      labels={{
        title: t('share.title', { title: poll?.title ?? '' }),
        close: t('share.close'),
        qrTitle: t('share.qrTitle', { link: link ?? '' }),
        copy: t('share.copy'),
        copied: t('share.copied'),
        svg: t('share.svg'),
        png: t('share.png'),
        hint: t('share.hint'),
      }}
    >
      {poll ? <EmbedCode poll={poll} /> : null}
    </ShareLinkModal>
  );
}
