import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../collection/types.ts';
import type { PhotoDraft } from './answers.ts';
import classes from './Collect.module.css';
import { FieldLegend } from './FieldLegend.tsx';

/**
 * The largest photo sent as is, in bytes. Photos travel base64-encoded inside the JSON of a
 * submission or a sync batch, whose body the service caps at 1 MB (docs/collection.md,
 * "Photos"); base64 adds a third. Larger photos are resized on the device first.
 */
const PHOTO_MAX_BYTES = 500_000;

const readAsDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(blob);
  });

/** Longest sides tried, in turn, for a photo over {@link PHOTO_MAX_BYTES}. */
const RESIZE_STEPS = [1600, 1200, 800] as const;

/**
 * A photo made small enough to send: JPEG (what cameras give; a PNG screenshot becomes one)
 * at each of {@link RESIZE_STEPS} in turn until it is within {@link PHOTO_MAX_BYTES}, with
 * browser-image-compression (loaded on first use), whose ten rounds of lower quality may not
 * reach the limit for a detailed photo at the first size. Undefined when none does.
 */
async function shrink(file: File): Promise<Blob | undefined> {
  const { default: compress } = await import('browser-image-compression');
  for (const side of RESIZE_STEPS) {
    const blob = await compress(file, {
      maxSizeMB: PHOTO_MAX_BYTES / 1_048_576,
      maxWidthOrHeight: side,
      fileType: 'image/jpeg',
      initialQuality: 0.85,
      useWebWorker: false,
    });
    if (blob.size <= PHOTO_MAX_BYTES) return blob;
  }
  return undefined;
}

/**
 * A photo from the camera or the gallery (`<input type=file accept=image/* capture>`). A photo
 * over {@link PHOTO_MAX_BYTES} is resized in the browser ({@link shrink}: at most 1,600 px and
 * the byte limit) before it is kept; the thumbnail shows what will be sent. One that cannot be
 * made small enough is not kept, and the collector is told so.
 */
export function PhotoInput(props: {
  field: Field;
  value: PhotoDraft | null;
  error?: string;
  disabled?: boolean;
  /** Not relevant (form logic): kept in the page, out of sight and of the accessibility tree. */
  hidden?: boolean;
  onChange: (value: PhotoDraft | null) => void;
}) {
  const { t } = useTranslation('collect');
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // No photo kept (after a send, a removal, a discarded draft): the picker names no file either.
  useEffect(() => {
    if (!props.value && !busy && input.current) input.current.value = '';
  }, [props.value, busy]);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    try {
      const blob = file.size > PHOTO_MAX_BYTES ? await shrink(file) : file;
      if (!blob) {
        // The photo chosen before is not sent in its place.
        props.onChange(null);
        setFailure(t('photo.tooLarge', { kb: PHOTO_MAX_BYTES / 1000 }));
        return;
      }
      // A resized photo is a JPEG: its name says so.
      const name = blob === file ? file.name : `${file.name.replace(/\.[^.]*$/, '')}.jpg`;
      props.onChange({ name, dataUrl: await readAsDataUrl(blob), size: blob.size });
    } catch {
      setFailure(t('photo.failed'));
    } finally {
      setBusy(false);
    }
  };
  const error = failure ?? props.error;
  return (
    <div className={classes.fieldset} hidden={props.hidden} data-field={props.field.uuid}>
      <FieldLegend field={props.field} htmlFor={id} />
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        capture="environment"
        disabled={props.disabled || busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-n ${id}-e` : `${id}-n`}
        onChange={(e) => void choose(e.currentTarget.files?.[0])}
      />
      <p id={`${id}-n`} className={classes.note} aria-live="polite">
        {busy
          ? t('photo.resizing')
          : props.value
            ? t('photo.chosen', { name: props.value.name, kb: Math.ceil(props.value.size / 1000) })
            : t('photo.hint', { kb: PHOTO_MAX_BYTES / 1000 })}
      </p>
      {props.value ? (
        <>
          <img
            src={props.value.dataUrl}
            alt={t('photo.preview', { label: props.field.label })}
            className={classes.thumb}
          />
          <button
            type="button"
            className={classes.danger}
            onClick={() => props.onChange(null)}
            disabled={props.disabled}
          >
            {t('photo.remove')}
          </button>
        </>
      ) : null}
      {error ? (
        <p id={`${id}-e`} className={classes.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
