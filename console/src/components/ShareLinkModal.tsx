import { useRef, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { QRCodeCanvas, QRCodeSVG } from 'qrcode.react';
import { CopyValue } from './CopyValue.tsx';

/** Saves `href` as a file named `name` (a temporary link click). */
function download(href: string, name: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
}

/** The words of a {@link ShareLinkModal}, in the caller's namespace and language. */
export interface ShareLabels {
  /** The dialog's title ("Share …"). */
  title: string;
  /** The close button's accessible name. */
  close: string;
  /** The QR code's title (read out), naming the link. */
  qrTitle: string;
  copy: string;
  copied: string;
  svg: string;
  png: string;
  /** One line under the code: who opens the link and how. */
  hint: string;
}

/**
 * A public link to share (a poll's voting page, a project's web form): the link with a copy
 * button, and its QR code (qrcode.react) to show on a screen or print, downloadable as SVG or
 * PNG (`<file>.svg`, `<file>.png`; the PNG drawn at 1,024 px from a hidden canvas). Shown while
 * `link` is not null.
 */
export function ShareLinkModal(props: {
  link: string | null;
  file: string;
  labels: ShareLabels;
  onClose: () => void;
  /** Test ids of the QR code and of the link. */
  testIds: { qr: string; link: string };
  /** More ways to share, under the link and its code (a poll's embed code). */
  children?: ReactNode;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { link, labels, file } = props;
  return (
    <Modal
      opened={link !== null}
      onClose={props.onClose}
      title={labels.title}
      centered
      closeButtonProps={{ 'aria-label': labels.close }}
    >
      {link ? (
        <Stack gap="md" align="center">
          <QRCodeSVG
            ref={svgRef}
            value={link}
            size={240}
            marginSize={2}
            title={labels.qrTitle}
            data-link={link}
            data-testid={props.testIds.qr}
            style={{ maxWidth: '100%', height: 'auto', background: '#fff' }}
          />
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
            copyLabel={labels.copy}
            copiedLabel={labels.copied}
            testId={props.testIds.link}
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
              {labels.svg}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() =>
                canvasRef.current && download(canvasRef.current.toDataURL('image/png'), `${file}.png`)
              }
            >
              {labels.png}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" ta="center">
            {labels.hint}
          </Text>
          {props.children}
        </Stack>
      ) : null}
    </Modal>
  );
}
