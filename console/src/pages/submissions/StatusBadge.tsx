import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SubmissionStatus } from '../collection/types.ts';

const COLORS: Record<SubmissionStatus, string> = {
  submitted: 'blue',
  draft: 'gray',
  reviewed: 'green',
  rejected: 'red',
  requires_correction: 'orange',
};

/** A submission status as a coloured badge, named in the reader's language. */
export function StatusBadge({ status }: { status: SubmissionStatus }) {
  const { t } = useTranslation('collection');
  return (
    <Badge color={COLORS[status]} variant="light" style={{ whiteSpace: 'nowrap', minWidth: 'max-content' }}>
      {t(`status.${status}`)}
    </Badge>
  );
}
