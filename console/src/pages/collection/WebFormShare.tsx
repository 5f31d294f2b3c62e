import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ShareLinkModal } from '../../components/ShareLinkModal.tsx';
import type { Project } from './types.ts';

/** The address of a project's web form on this console's origin (`/f/{project_id}`). */
const webFormLinkOf = (projectId: number) => `${window.location.origin}/f/${projectId}`;

/**
 * "Share" beside "Open the web form": the web form's link with a copy button and its QR code
 * (SVG, PNG) for collectors to open or scan, in the shared {@link ShareLinkModal} the polls use.
 */
export function WebFormShare({ project }: { project: Project }) {
  const { t } = useTranslation('projectViews');
  const [open, setOpen] = useState(false);
  const link = webFormLinkOf(project.id);
  return (
    <>
      <Button
        size="compact-md"
        variant="subtle"
        onClick={() => setOpen(true)}
        aria-label={t('webFormShare.button', { name: project.name })}
        aria-haspopup="dialog"
      >
        {t('webFormShare.short')}
      </Button>
      <ShareLinkModal
        link={open ? link : null}
        file={`web-form-${project.id}`}
        onClose={() => setOpen(false)}
        testIds={{ qr: 'web-form-qr', link: 'web-form-link' }}
        labels={{
          title: t('webFormShare.title', { name: project.name }),
          close: t('webFormShare.close'),
          qrTitle: t('webFormShare.qrTitle', { link }),
          copy: t('webFormShare.copy'),
          copied: t('webFormShare.copied'),
          svg: t('webFormShare.svg'),
          png: t('webFormShare.png'),
          hint: t(`webFormShare.hint.${project.settings.collect_access}`),
        }}
      />
    </>
  );
}
