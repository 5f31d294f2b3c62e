import {
  NumberInput,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { InstantInput } from '../../components/InstantInput.tsx';
import { LIMITS, namesCanBeShown, RESULTS_VISIBILITIES, type PollFormValues } from './poll-form.ts';

type Form = UseFormReturnType<PollFormValues>;

/** A local date-time field that also shows the instant in UTC (what the service stores). */
function InstantField({ form, path, label }: { form: Form; path: 'starts_at' | 'ends_at'; label: string }) {
  return (
    <InstantInput
      label={label}
      key={form.key(`settings.${path}`)}
      {...form.getInputProps(`settings.${path}`)}
      value={form.values.settings[path]}
    />
  );
}

/**
 * The polls service's settings (docs/polls.md, "Settings"): the voting window (in the user's time
 * zone, shown with UTC), votes per voter, who may vote, one-time-password verification, who sees
 * the results (one of four modes, each with a line saying what it does: docs/polls.md, "Result
 * visibility"), comments and reactions, and the sites that may embed the poll (one origin per
 * line: docs/polls.md, "Embedding"), and whether who voted is shown to those who see the results
 * (off, and unavailable, with anonymous ballots or invitees: docs/polls.md, "Participants shown to
 * voters").
 */
export function SettingsFields({ form }: { form: Form }) {
  const { t } = useTranslation('polls');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('settings.zone', { zone })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <InstantField form={form} path="starts_at" label={t('settings.startsAt')} />
        <InstantField form={form} path="ends_at" label={t('settings.endsAt')} />
      </SimpleGrid>
      <NumberInput
        label={t('settings.maxVotes')}
        description={t('settings.maxVotesHint')}
        min={LIMITS.votes.min}
        max={LIMITS.votes.max}
        allowDecimal={false}
        maw={240}
        key={form.key('settings.max_votes_per_voter')}
        {...form.getInputProps('settings.max_votes_per_voter')}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="access-label">
          {t('settings.access')}
        </Text>
        <SegmentedControl
          aria-labelledby="access-label"
          data={[
            { value: 'public', label: t('settings.accessPublic') },
            { value: 'authenticated', label: t('settings.accessAuthenticated') },
          ]}
          key={form.key('settings.access')}
          {...form.getInputProps('settings.access')}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
      <Switch
        label={t('settings.invitedOnly')}
        description={t('settings.invitedOnlyHint')}
        checked={form.values.settings.voters === 'invited'}
        onChange={(e) =>
          form.setFieldValue('settings.voters', e.currentTarget.checked ? 'invited' : 'anyone')
        }
        data-testid="invited-only"
      />
      <Switch
        label={t('settings.anonymous')}
        description={t('settings.anonymousHint')}
        disabled={
          form.values.settings.voters !== 'invited' && form.values.settings.access !== 'authenticated'
        }
        key={form.key('settings.anonymous')}
        {...form.getInputProps('settings.anonymous', { type: 'checkbox' })}
      />
      <Switch
        label={t('settings.verification')}
        description={t('settings.verificationHint')}
        key={form.key('settings.require_verification')}
        {...form.getInputProps('settings.require_verification', { type: 'checkbox' })}
      />
      <Radio.Group
        label={t('settings.visibility.label')}
        key={form.key('settings.results_visibility')}
        {...form.getInputProps('settings.results_visibility')}
      >
        <Stack gap="xs" mt={6}>
          {RESULTS_VISIBILITIES.map((mode) => (
            <Radio
              key={mode}
              value={mode}
              label={t(`settings.visibility.${mode}`)}
              description={t(`settings.visibility.${mode}Hint`)}
              data-testid={`visibility-${mode}`}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Switch
        label={t('settings.names')}
        description={t(
          namesCanBeShown(form.values.settings) ? 'settings.namesHint' : 'settings.namesUnavailable',
        )}
        disabled={!namesCanBeShown(form.values.settings)}
        checked={form.values.settings.show_participant_names && namesCanBeShown(form.values.settings)}
        onChange={(e) => form.setFieldValue('settings.show_participant_names', e.currentTarget.checked)}
        error={form.errors['settings.show_participant_names']}
        data-testid="show-names"
      />
      <Switch
        label={t('settings.comments')}
        key={form.key('settings.allow_comments')}
        {...form.getInputProps('settings.allow_comments', { type: 'checkbox' })}
      />
      <Switch
        label={t('settings.reactions')}
        key={form.key('settings.allow_reactions')}
        {...form.getInputProps('settings.allow_reactions', { type: 'checkbox' })}
      />
      <Textarea
        label={t('settings.embedOrigins')}
        description={t('settings.embedOriginsHint')}
        placeholder="https://www.example.org"
        autosize
        minRows={2}
        maxRows={8}
        spellCheck={false}
        autoCapitalize="off"
        data-testid="embed-origins"
        key={form.key('settings.embed_origins')}
        {...form.getInputProps('settings.embed_origins')}
      />
    </Stack>
  );
}
