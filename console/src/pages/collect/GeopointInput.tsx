import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/native/TextField.tsx';
import type { Field } from '../collection/types.ts';
import type { GeopointDraft } from './answers.ts';
import classes from './Collect.module.css';
import { FieldLegend } from './FieldLegend.tsx';

const EMPTY: GeopointDraft = { latitude: '', longitude: '', altitude: '', accuracy: '' };

/**
 * A geopoint: "use my location" reads `navigator.geolocation` (high accuracy, 20 s at most) and
 * shows the accuracy it reported; latitude and longitude can also be typed (the fallback when
 * the device has no fix, or the collector records a place they are not standing on).
 */
export function GeopointInput(props: {
  field: Field;
  value: GeopointDraft | null;
  error?: string;
  disabled?: boolean;
  /** Not relevant (form logic): kept in the page, out of sight and of the accessibility tree. */
  hidden?: boolean;
  onChange: (value: GeopointDraft) => void;
}) {
  const { t } = useTranslation('collect');
  const [locating, setLocating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const value = props.value ?? EMPTY;
  const set = (patch: Partial<GeopointDraft>) => props.onChange({ ...value, ...patch });
  const locate = () => {
    if (!('geolocation' in navigator)) return setFailure(t('geo.unsupported'));
    setLocating(true);
    setFailure(null);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating(false);
        props.onChange({
          latitude: String(pos.coords.latitude),
          longitude: String(pos.coords.longitude),
          altitude: pos.coords.altitude === null ? '' : String(pos.coords.altitude),
          accuracy: String(Math.round(pos.coords.accuracy)),
        });
      },
      (err) => {
        setLocating(false);
        setFailure(err.code === err.PERMISSION_DENIED ? t('geo.denied') : t('geo.failed'));
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 },
    );
  };
  return (
    <fieldset
      className={classes.fieldset}
      disabled={props.disabled}
      hidden={props.hidden}
      data-field={props.field.uuid}
    >
      <FieldLegend field={props.field} />
      <button type="button" className={classes.button} onClick={locate} disabled={locating}>
        {locating ? t('geo.locating') : t('geo.locate')}
      </button>
      <p className={classes.note} aria-live="polite">
        {failure ?? (value.accuracy !== '' ? t('geo.accuracy', { metres: value.accuracy }) : t('geo.manual'))}
      </p>
      <div className={classes.row}>
        <TextField
          label={t('geo.latitude')}
          inputMode="decimal"
          value={value.latitude}
          onChange={(latitude) => set({ latitude, accuracy: '' })}
        />
        <TextField
          label={t('geo.longitude')}
          inputMode="decimal"
          value={value.longitude}
          onChange={(longitude) => set({ longitude, accuracy: '' })}
        />
      </div>
      {props.error ? <p className={classes.error}>{props.error}</p> : null}
    </fieldset>
  );
}
