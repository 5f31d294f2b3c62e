import { Alert, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo } from 'react';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { useMe, type Account } from '../../auth/session.ts';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { setLanguage } from '../../i18n/index.ts';
import { emailRule, nameRule } from '../auth/rules.ts';
import { EmailVerification } from './EmailVerification.tsx';
import { browserTimeZone, timeZones, useUpdateProfile, type ProfileChanges } from './use-account.ts';

const FIELDS = ['name', 'email', 'language', 'time_zone'];

/**
 * `/settings/profile`: name, e-mail, language and time zone of the signed-in user, and whether
 * the e-mail is verified (with "send again"). Unset language and time zone are proposed as the
 * console's and the browser's. Saving sends only what changed; a new language
 * switches the console at once; a new e-mail is unverified until its link is opened.
 */
export function ProfilePage() {
  const me = useMe();
  if (!me.data) return <PageLoader />;
  return <ProfileForm account={me.data} />;
}

function ProfileForm({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const { t: tAuth } = useTranslation('auth');
  const update = useUpdateProfile();
  const zones = useMemo(() => timeZones(), []);
  const initial = {
    name: account.name,
    email: account.email,
    // Unset: proposed as the console's current language, as the time zone is the browser's.
    language: account.language ?? (i18n.resolvedLanguage === 'fr' ? 'fr' : 'en'),
    time_zone: account.time_zone ?? browserTimeZone(),
  };
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: initial,
    validate: {
      name: nameRule(tAuth),
      email: emailRule(tAuth),
      language: (v) => (v ? null : tAuth('errors.required')),
      time_zone: (v) => (v ? null : tAuth('errors.required')),
    },
  });
  const submit = form.onSubmit((values) => {
    const changes: ProfileChanges = {};
    if (values.name.trim() !== account.name) changes.name = values.name.trim();
    if (values.email.trim().toLowerCase() !== account.email) changes.email = values.email.trim();
    if (values.language !== (account.language ?? '')) changes.language = values.language as 'en' | 'fr';
    if (values.time_zone !== account.time_zone) changes.time_zone = values.time_zone;
    if (Object.keys(changes).length === 0) return;
    update.mutate(changes, {
      onSuccess: (saved) => {
        form.setInitialValues({ ...values, name: saved.name, email: saved.email });
        if (saved.language === 'en' || saved.language === 'fr') void setLanguage(saved.language);
      },
      onError: (err) => form.setErrors(fieldErrorsOf(err)),
    });
  });
  const fieldErrors = Object.keys(fieldErrorsOf(update.error));
  const onField = fieldErrors.some((f) => FIELDS.includes(f));

  return (
    <Stack gap="lg" maw={640}>
      <Stack gap={4}>
        <Title order={1}>{t('profile.title')}</Title>
        <Text c="dimmed">{t('profile.intro')}</Text>
      </Stack>
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label={tAuth('fields.name')}
            autoComplete="name"
            required
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <TextInput
            label={tAuth('fields.email')}
            type="email"
            autoComplete="email"
            required
            description={t('profile.emailHint')}
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Group gap="xs" aria-live="polite">
            <Text size="sm">{t('profile.emailStatus')}</Text>
            {account.email_verified_at ? (
              <Badge color="green" variant="light" data-testid="email-status">
                {t('profile.verified')}
              </Badge>
            ) : (
              <Badge color="orange" variant="light" data-testid="email-status">
                {t('profile.unverified')}
              </Badge>
            )}
          </Group>
          <Select
            label={t('profile.language')}
            description={t('profile.languageHint')}
            data={[
              { value: 'en', label: 'English' },
              { value: 'fr', label: 'Français' },
            ]}
            allowDeselect={false}
            required
            placeholder={t('profile.choose')}
            key={form.key('language')}
            {...form.getInputProps('language')}
          />
          <Select
            label={t('profile.timeZone')}
            description={t('profile.timeZoneHint')}
            data={zones}
            searchable
            allowDeselect={false}
            required
            limit={50}
            nothingFoundMessage={t('profile.noTimeZone')}
            key={form.key('time_zone')}
            {...form.getInputProps('time_zone')}
          />
          <Group>
            <Button type="submit" loading={update.isPending}>
              {t('profile.save')}
            </Button>
          </Group>
          {update.isSuccess ? (
            <Alert color="green" variant="light" role="status" data-testid="profile-saved">
              {update.data.email_verified_at ? t('profile.saved') : t('profile.savedUnverified')}
            </Alert>
          ) : null}
          {update.error && !onField ? <ProblemAlert error={update.error} /> : null}
        </Stack>
      </form>
      {account.email_verified_at ? null : <EmailVerification email={account.email} />}
    </Stack>
  );
}
