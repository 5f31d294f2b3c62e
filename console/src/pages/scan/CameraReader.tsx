import { memo, useEffect, useRef, useState } from 'react';
import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The same code seen again by the camera within this time is one scan (ms). */
const SAME_CODE_MS = 3000;

interface Controls {
  stop: () => void;
  switchTorch?: (on: boolean) => Promise<void>;
}

/**
 * Reads QR codes from the camera with ZXing (`@zxing/browser`, loaded only when the camera is
 * turned on, on the main thread: the Content-Security-Policy allows no blob workers) and hands
 * each code to `onScan` — the same path as a USB scan. A code held in front of the camera counts
 * once per 3 s; the camera runs on while the handler changes. Offers the torch where the camera has one and a choice of camera where there
 * are several. Camera errors (refused permission, no camera) show next to the button.
 */
export const CameraReader = memo(function CameraReader(props: {
  onScan: (code: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('scan');
  const video = useRef<HTMLVideoElement>(null);
  const [on, setOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cameras, setCameras] = useState<Array<{ id: string; label: string }>>([]);
  const [camera, setCamera] = useState<string | undefined>();
  const [controls, setControls] = useState<Controls | null>(null);
  const [torch, setTorch] = useState(false);
  // The latest handler, read at each code: a new handler (the scanner's state changed) must not
  // restart the camera, which takes seconds on a slow phone and drops the frames in between.
  const onScan = useRef(props.onScan);
  onScan.current = props.onScan;

  useEffect(() => {
    if (!on || props.disabled) return;
    let live = true;
    let stop: (() => void) | undefined;
    const last = { code: '', at: 0 };
    const start = async () => {
      try {
        const { BrowserQRCodeReader } = await import('@zxing/browser');
        const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 100 });
        const found = await BrowserQRCodeReader.listVideoInputDevices();
        if (!live || !video.current) return;
        setCameras(
          found.map((d, i) => ({ id: d.deviceId, label: d.label || t('camera.numbered', { n: i + 1 }) })),
        );
        const c = await reader.decodeFromVideoDevice(camera, video.current, (result) => {
          if (!result) return;
          const code = result.getText();
          const now = Date.now();
          if (code === last.code && now - last.at < SAME_CODE_MS) return;
          last.code = code;
          last.at = now;
          onScan.current(code);
        });
        stop = () => c.stop();
        if (!live) return stop();
        setControls(c);
        setError(null);
      } catch (err) {
        if (live) setError(t('camera.failed', { reason: (err as Error).message || String(err) }));
      }
    };
    void start();
    return () => {
      live = false;
      stop?.();
      setControls(null);
      setTorch(false);
    };
  }, [on, camera, props.disabled, t]);

  return (
    <div>
      <Group gap="xs" wrap="wrap">
        <Button
          variant="default"
          onClick={() => setOn((v) => !v)}
          disabled={props.disabled}
          aria-pressed={on}
        >
          {on ? t('camera.off') : t('camera.on')}
        </Button>
        {on && controls?.switchTorch ? (
          <Button
            variant="default"
            aria-pressed={torch}
            onClick={() => void controls.switchTorch!(!torch).then(() => setTorch(!torch))}
          >
            {torch ? t('camera.torchOff') : t('camera.torchOn')}
          </Button>
        ) : null}
        {on && cameras.length > 1 ? (
          <NativeSelect
            aria-label={t('camera.choose')}
            value={camera ?? cameras[0]!.id}
            onChange={(e) => setCamera(e.currentTarget.value)}
            data={cameras.map((c) => ({ value: c.id, label: c.label }))}
          />
        ) : null}
      </Group>
      {error ? (
        <Text size="sm" c="red.9" role="alert">
          {error}
        </Text>
      ) : null}
      {on ? (
        <video
          ref={video}
          muted
          playsInline
          data-testid="camera-preview"
          aria-label={t('camera.preview')}
          style={{ width: '100%', maxHeight: '40dvh', marginTop: 8, borderRadius: 8, background: '#000' }}
        />
      ) : null}
    </div>
  );
});
