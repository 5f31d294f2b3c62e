import { useRef } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { CopyValue } from '../../components/CopyValue.tsx';
import { QRCodeCanvas, QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { publicLinkOf, type Poll } from './use-polls.ts';

/** Saves `href` as a file named `name` (a temporary link click). */
function download(href: string, name: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
}

/**
 * The poll's public link (`/p/{poll_id}`) with a copy button, and its QR code (qrcode.react) to
 * show on a screen or print, downloadable as SVG or PNG.
 */
export function ShareModal({ poll, onClose }: { poll: Poll | null; onClose: () => void }) {
  const { t } = useTranslation('polls');
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const link = poll ? publicLinkOf(poll.id) : '';
  const file = poll ? `poll-${poll.id}` : 'poll';
  return (
    <Modal
      opened={poll !== null}
      onClose={onClose}
      title={t('share.title', { title: poll?.title ?? '' })}
      centered
      closeButtonProps={{ 'aria-label': t('share.close') }}
    >
      {poll ? (
        <Stack gap="md" align="center">
          <QRCodeSVG
            ref={svgRef}
            value={link}
            size={240}
            marginSize={2}
            title={t('share.qrTitle', { link })}
            data-link={link}
            data-testid="poll-qr"
            style={{ maxWidth: '100%', height: 'auto', background: '#fff' }}
          />
          {/* The PNG is drawn from a hidden canvas at print size. */}
          <QRCodeCanvas
            ref={canvasRef}
            value={link}
            size={1024}
            marginSize={4}
            style={{ display: 'none' }}
            aria-hidden
          />
          <CopyValue
            value={link}
            copyLabel={t('share.copy')}
            copiedLabel={t('share.copied')}
            testId="poll-link"
          />
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                const svg = svgRef.current?.outerHTML;
                if (svg)
                  download(URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' })), `${file}.svg`);
              }}
            >
              {t('share.svg')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() =>
                canvasRef.current && download(canvasRef.current.toDataURL('image/png'), `${file}.png`)
              }
            >
              {t('share.png')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" ta="center">
            {t('share.hint')}
          </Text>
        </Stack>
      ) : null}
    </Modal>
  );
}
