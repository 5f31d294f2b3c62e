import { useEffect } from 'react';
import { Group, NativeSelect, NumberInput, SegmentedControl, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useGates } from '../gates/use-gates.ts';
import type { DeviceGate } from './scan-api.ts';
import { setScanSettings, useScanSettings } from './scan-settings.ts';

/**
 * Above the scan field (docs/events.md, "Gates", "Parties"): the gate a signed-in scanner works
 * at (its event's gates; a scanner device's gate is the owner's choice, `deviceGate` from
 * `devices/me`), entry or exit (offered only where the gate scans exits; the implicit entrance
 * scans entries only), and how many people of a party the next scan lets in or out (empty: all).
 */
export function GateControls(props: {
  eventId: string;
  signedIn: boolean;
  /** A device's gate: null for the implicit entrance; undefined while unknown or for a signed-in user. */
  deviceGate?: DeviceGate | null | undefined;
}) {
  const { t } = useTranslation('scan');
  const s = useScanSettings();
  const gates = useGates(props.eventId, props.signedIn);
  const list = gates.data ?? [];
  const gate = list.find((g) => g.id === s.gateId) ?? null;
  const exits = props.signedIn ? (gate?.scan_exits ?? false) : (props.deviceGate?.scan_exits ?? false);
  // Where exits are not scanned, the next scans are entries (an "exit" kept from another gate
  // would be refused at every scan, with no switch on screen to change it).
  const known = props.signedIn ? gates.isSuccess : props.deviceGate !== undefined;
  useEffect(() => {
    if (known && !exits && s.direction === 'exit') setScanSettings({ direction: 'entry' });
  }, [known, exits, s.direction]);
  return (
    <Stack gap="xs" data-testid="gate-controls">
      {props.signedIn && list.length > 0 ? (
        <NativeSelect
          label={t('gate.label')}
          data={[{ value: '', label: t('gate.none') }, ...list.map((g) => ({ value: g.id, label: g.name }))]}
          value={s.gateId ?? ''}
          onChange={(e) => {
            const id = e.currentTarget.value || null;
            const next = list.find((g) => g.id === id);
            setScanSettings({ gateId: id, ...(next?.scan_exits ? {} : { direction: 'entry' }) });
          }}
          data-testid="gate-select"
        />
      ) : null}
      <Group gap="sm" align="flex-end" wrap="wrap">
        {exits ? (
          <SegmentedControl
            aria-label={t('gate.direction')}
            value={s.direction}
            onChange={(v) => setScanSettings({ direction: v as 'entry' | 'exit' })}
            data={[
              { value: 'entry', label: t('gate.entry') },
              { value: 'exit', label: t('gate.exit') },
            ]}
            data-testid="direction"
          />
        ) : null}
        <NumberInput
          label={t('gate.people')}
          description={t('gate.peopleHint')}
          min={1}
          max={100}
          allowDecimal={false}
          allowNegative={false}
          value={s.people ?? ''}
          onChange={(v) => setScanSettings({ people: typeof v === 'number' && v >= 1 ? v : null })}
          w={200}
          data-testid="people"
        />
      </Group>
    </Stack>
  );
}
