import { useTranslation } from 'react-i18next';
import { ShareLinkModal } from '../../components/ShareLinkModal.tsx';
import { publicLinkOf, type Poll } from './use-polls.ts';

/**
 * The poll's public link (`/p/{poll_id}`) with a copy button, and its QR code to show on a
 * screen or print, downloadable as SVG or PNG (the shared {@link ShareLinkModal}).
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
    />
  );
}
