import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PointsMap } from '../project-data/PointsMap.tsx';
import { geopointText, type GeopointValue } from './values.ts';

/** A geopoint answer: its coordinates and precision as text, and the point on a small map. */
export function GeopointAnswer({ value, label }: { value: GeopointValue; label: string }) {
  const { t, i18n } = useTranslation('submissions');
  const [latitude, longitude] = value;
  const points = useMemo(
    () => [{ submissionId: 0, latitude, longitude, label }],
    [latitude, longitude, label],
  );
  return (
    <>
      <span>{geopointText(value, i18n.resolvedLanguage ?? 'en')}</span>
      <PointsMap points={points} label={t('drawer.mapOf', { label })} height={160} />
    </>
  );
}
