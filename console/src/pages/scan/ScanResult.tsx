import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Signal } from './feedback.ts';
import classes from './Scanner.module.css';
import type { Shown } from './use-scanner.ts';

/**
 * The colour of an answer: green checked in (online, or admitted offline from the guest list),
 * amber kept for later without a list, or "already in" as the offline list says; red anything refused.
 */
export function signalOf(shown: Shown): Signal {
  const o = shown.outcome;
  if (o.kind === 'checked_in') return 'green';
  if (o.kind === 'stored') return 'amber';
  if (o.kind === 'offline')
    return o.decision.kind === 'admit' || o.decision.kind === 'exit'
      ? 'green'
      : o.decision.kind === 'already'
        ? 'amber'
        : 'red';
  // Scanned at this door already, waiting to sync: "already in", as the offline list says it.
  if (o.kind === 'local' && o.problem === 'queued_here') return 'amber';
  return 'red';
}

/**
 * The answer to the last scan, readable at a glance across a door: a full-width panel in green
 * (checked in, with the invitee's name and type), red (why not: already checked in, with when and
 * by which door; unknown code; another event's; revoked) or amber (stored, will sync). Announced
 * to screen readers as it changes.
 */
export const ScanResult = memo(function ScanResult(props: { shown: Shown | null }) {
  const { t, i18n } = useTranslation('scan');
  const time = (iso: string | null | undefined) =>
    iso
      ? new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { timeStyle: 'short' }).format(new Date(iso))
      : '';
  const { shown } = props;
  let headline = t('result.ready');
  let name: string | null = null;
  let detail: string | null = t('result.readyHint');
  if (shown) {
    const o = shown.outcome;
    name = null;
    detail = null;
    switch (o.kind) {
      case 'checked_in':
        headline = o.exit ? t('result.exited') : t('result.checkedIn');
        name = o.invite.nom;
        detail = o.exit
          ? o.gate
            ? t('result.leftThrough', { gate: o.gate })
            : null
          : o.party
            ? t('result.party', o.party)
            : t(`types.${o.invite.type_invite}`, { defaultValue: o.invite.type_invite });
        break;
      case 'stored':
        headline = t('result.stored');
        detail = t('result.storedHint');
        break;
      case 'device_revoked':
        headline = t('result.deviceRevoked');
        detail = t('result.deviceRevokedHint');
        break;
      case 'refused':
        headline = t(`result.refused.${o.result}`, { defaultValue: o.message });
        name = o.invite?.nom ?? null;
        detail =
          o.result === 'already_checked_in'
            ? o.gate
              ? t('result.insideThrough', { gate: o.gate, time: time(o.checkedInAt) })
              : t('result.firstScan', { time: time(o.checkedInAt), by: o.scannePar ?? t('result.someone') })
            : null;
        break;
      case 'offline': {
        const d = o.decision;
        name = d.invitee?.nom ?? null;
        if (d.kind === 'admit') {
          headline = t('result.checkedIn');
          detail = d.party
            ? t('result.offlineParty', d.party)
            : d.invitee
              ? t('result.offlineAdmitted')
              : t('result.offlineSigned');
        } else if (d.kind === 'exit') {
          headline = t('result.exited');
          detail = t('result.offlineExit');
        } else if (d.kind === 'already') {
          headline = t('result.alreadyIn');
          detail = d.here
            ? t('result.alreadyHere', { time: time(d.at) })
            : t('result.alreadyElsewhere', { time: time(d.at), by: d.by ?? t('result.someone') });
        } else {
          headline = t(`result.refused.${d.result}`);
          if (d.result === 'seats_exceeded') detail = t('result.remaining', { count: d.remaining ?? 0 });
          if (d.result === 'not_inside') detail = t('result.offlineNotInside');
        }
        break;
      }
      case 'local':
        headline = t(`result.local.${o.problem}`);
        detail = o.problem === 'queued_here' ? t('result.queuedHere', { time: time(o.at) }) : null;
        break;
    }
  }
  return (
    <section
      className={classes.result}
      data-signal={shown ? signalOf(shown) : 'none'}
      data-testid="scan-result"
      role="status"
      aria-live="assertive"
      aria-atomic="true"
    >
      <div className={classes.headline}>{headline}</div>
      {name ? <div className={classes.name}>{name}</div> : null}
      {detail ? <div className={classes.detail}>{detail}</div> : null}
    </section>
  );
});
