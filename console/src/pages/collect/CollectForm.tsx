import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Field, Project, VersionWithFields } from '../collection/types.ts';
import { LogicStore } from '../../components/form-logic/logic-store.ts';
import type { FormAnswers, FormNode } from '../../components/form-logic/logic-types.ts';
import { startLanguage } from '../../components/form-logic/logic-texts.ts';
import { FormLanguageSelect } from '../../components/form-logic/FormLanguageSelect.tsx';
import { toEntries, type Answer, type Answers } from './answers.ts';
import { FieldInput } from './FieldInput.tsx';
import { deleteDraft, getDraft, putDraft, type QueueItem } from './offline-store.ts';
import { QueuePanel } from './QueuePanel.tsx';
import { needsLogic } from './needs-logic.ts';
import type * as LogicKitModule from './logic-kit.ts';
import { useQueue } from './use-queue.ts';
import classes from './Collect.module.css';

/**
 * The form itself: the consent step when the project asks for it, every field of the published
 * version, client-side checks matching the service's, the draft kept in IndexedDB as it is typed
 * (and restored on return), and on "send" a queued submission that is sent at once when online
 * and later otherwise. Nothing typed is dropped: a refused submission comes back with its
 * reasons and can be edited into the form again. A version with logic (groups, repeats,
 * relevance, constraints, calculations, languages: docs/console.md "Web form") loads the form
 * engine with import() and is shown and checked by it; its drafts and queued items keep the
 * answers by path and the engine's answers tree, and send nested entries.
 */
export function CollectForm(props: {
  project: Project;
  version: VersionWithFields | null;
  /** False while the project does not collect: only the queue shows. */
  collecting: boolean;
  signedIn: boolean;
}) {
  const { t, i18n } = useTranslation(['collectPage', 'collect']);
  const { project, version } = props;
  const fields = useMemo(() => version?.fields ?? [], [version]);
  const logicNeeded = version ? needsLogic(fields, version.languages) : false;
  const [kit, setKit] = useState<LogicKit | null>(null);
  useEffect(() => {
    if (logicNeeded) void import('./logic-kit.ts').then((k) => setKit(() => k));
  }, [logicNeeded]);
  const form = useMemo(() => (kit && version ? kit.compileVersion(version) : null), [kit, version]);
  /**
   * What a form with logic starts from (a restored draft, an item corrected): the engine's answers
   * tree (null: the form's initial answers), what was typed and the messages, by path.
   */
  const [base, setBase] = useState<LogicBase>(EMPTY_BASE);
  const store = useMemo(() => {
    if (!form || !kit) return null;
    const s = form.session(base.tree ?? form.initialAnswers());
    kit.syncRepeatCounts(form, s);
    return new LogicStore(s, { ...base.drafts }, { ...base.errors });
  }, [form, kit, base]);
  const [lang, setLang] = useState(() =>
    startLanguage(version?.languages, version?.default_language, i18n.language),
  );
  const queue = useQueue(project.id, props.signedIn);
  const [answers, setAnswers] = useState<Answers>({});
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Why the service refused the submission being corrected, when no field says it. */
  const [refusal, setRefusal] = useState<string[]>([]);
  const [restored, setRestored] = useState<string | null>(null);
  const [queued, setQueued] = useState(false);

  useEffect(() => {
    let live = true;
    void getDraft(project.id).then((draft) => {
      if (!live || !draft) return;
      setAnswers(draft.answers);
      if (draft.tree) setBase({ tree: draft.tree, drafts: draft.answers, errors: {} });
      setConsent(draft.consent);
      setRestored(draft.updated_at);
    });
    return () => {
      live = false;
    };
  }, [project.id]);

  const saveDraft = useDebouncedCallback((next: Answers, agreed: boolean, tree?: FormAnswers) => {
    void putDraft({
      project_id: project.id,
      answers: next,
      ...(tree ? { tree } : {}),
      consent: agreed,
      updated_at: new Date().toISOString(),
    });
  }, 300);
  const change = (uuid: string, value: Answer) => {
    const next = { ...answers, [uuid]: value };
    setAnswers(next);
    setQueued(false);
    setErrors(({ [uuid]: _gone, ...rest }) => rest);
    saveDraft(next, consent);
  };
  /**
   * A change in a form with logic: the session re-evaluates what depends on `path` and only the
   * nodes it names re-render (the form itself does not: a 300-field form stays within a frame).
   */
  const changeLogic = (path: string, node: FormNode, value: Answer) => {
    if (!kit || !form || !store) return;
    if (queued) setQueued(false);
    const resync = () => kit.syncRepeatCounts(form, store.session);
    if (store.answer(path, node, value, kit.typedValue(node, value), resync)) setErrors(store.errors);
    saveDraft(store.drafts, consent, store.session.answers);
  };
  const addInstance = (path: string) => {
    store!.session.addInstance(path);
    store!.changedAll();
    saveDraft(store!.drafts, consent, store!.session.answers);
  };
  const removeInstance = (path: string, index: number) => {
    store!.session.removeInstance(path, index);
    store!.rekey((byPath) => kit!.shiftDrafts(byPath, path, index));
    store!.changedAll();
    saveDraft(store!.drafts, consent, store!.session.answers);
  };
  // Stable handlers for the memoised nodes, calling this render's functions.
  const handlers = useRef({ changeLogic, addInstance, removeInstance });
  useEffect(() => {
    handlers.current = { changeLogic, addInstance, removeInstance };
  });
  const stable = useMemo(
    () => ({
      onChange: (path: string, node: FormNode, value: Answer) =>
        handlers.current.changeLogic(path, node, value),
      onAddInstance: (path: string) => handlers.current.addInstance(path),
      onRemoveInstance: (path: string, index: number) => handlers.current.removeInstance(path, index),
    }),
    [],
  );
  const discard = async () => {
    saveDraft.cancel?.();
    // Gone from IndexedDB first: the notice leaves only once a reload can no longer bring it back.
    await deleteDraft(project.id);
    setAnswers({});
    setBase(EMPTY_BASE);
    setErrors({});
    setRefusal([]);
    setRestored(null);
  };
  const submitLogic = async () => {
    if (!kit || !form || !store) return;
    // Messages in the form's language (the console's strings for it, English when it has none).
    const ft = lang ? i18n.getFixedT(lang, ['collectPage', 'collect']) : t;
    const check = kit.checkLogic(form, store.session, store.drafts, lang, {
      required: ft('collect:errors.required'),
      notAllowed: ft('logic.notAllowed'),
      type: (p) => ft(`collect:${p.key}`, p.values ?? {}),
    });
    if (check.order.length) {
      store.setErrors(check.problems);
      store.changedAll();
      setErrors(check.problems);
      document
        .querySelector<HTMLElement>(`[data-field="${check.order[0]}"] :is(input, select, textarea)`)
        ?.focus();
      return;
    }
    await enqueue(
      check.entries as QueueItem['entries'],
      structuredClone(store.session.answers) as Record<string, unknown>,
      store.drafts,
    );
  };
  const enqueue = async (
    entries: QueueItem['entries'],
    tree?: Record<string, unknown>,
    typed: Answers = answers,
  ) => {
    const item: QueueItem = {
      local_id: crypto.randomUUID(),
      project_id: project.id,
      form_version_id: version!.id,
      answers: typed,
      ...(tree ? { tree } : {}),
      entries,
      consent: project.require_consent ? consent : null,
      client_updated_at: new Date().toISOString(),
      status: 'pending',
    };
    saveDraft.cancel?.();
    setAnswers({});
    setBase(EMPTY_BASE);
    setErrors({});
    setRefusal([]);
    setRestored(null);
    setQueued(true);
    await queue.add(item);
    await deleteDraft(project.id);
  };
  const submit = async () => {
    if (logicNeeded) return submitLogic();
    const { entries, problems } = toEntries(fields, answers);
    if (Object.keys(problems).length) {
      setErrors(
        Object.fromEntries(
          Object.entries(problems).map(([uuid, p]) => [uuid, t(`collect:${p.key}`, p.values ?? {})]),
        ),
      );
      const first = fields.find((f) => problems[f.uuid]);
      document.querySelector<HTMLElement>(`[data-field="${first?.uuid}"] input`)?.focus();
      return;
    }
    await enqueue(entries);
  };
  const edit = async (item: QueueItem) => {
    // Each field's reason goes under it; the others (a limit reached, a closed project) on top.
    // A form with logic keeps its messages by session path: `<member uuid>.1.<age uuid>` (an
    // entry inside instance 1) is `member.1.age`, under that field in that instance.
    const all = Object.entries(item.errors ?? {}).map(([key, message]): [string, string] => [
      logicNeeded ? sessionPathOf(key, fields) : key,
      message,
    ]);
    const isField = ([key]: [string, string]) =>
      logicNeeded ? fields.some((f) => f.name === key.split('.')[0]) : fields.some((f) => f.uuid === key);
    const own = Object.fromEntries(all.filter(isField));
    setAnswers(item.answers);
    if (logicNeeded) setBase({ tree: item.tree ?? null, drafts: item.answers, errors: own });
    setErrors(own);
    setRefusal(
      all.length
        ? [...new Set(all.filter((e) => !isField(e)).map(([, message]) => message))]
        : item.message
          ? [item.message]
          : [],
    );
    await putDraft({
      project_id: project.id,
      answers: item.answers,
      ...(item.tree ? { tree: item.tree } : {}),
      consent,
      updated_at: new Date().toISOString(),
    });
    await queue.remove(item.local_id);
    window.scrollTo({ top: 0 });
  };

  const needsConsent = project.require_consent && !consent;
  return (
    <Stack gap="lg">
      {!props.collecting ? null : needsConsent ? (
        <Paper withBorder p="md" component="section" aria-labelledby="consent-heading">
          <Stack gap="sm">
            <Text fw={600} id="consent-heading">
              {t('consent.title')}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{project.consent_text}</Text>
            <Group gap="xs">
              <Button onClick={() => setConsent(true)}>{t('consent.agree')}</Button>
            </Group>
            <Text size="sm" c="dimmed">
              {t('consent.refuse')}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <form
          noValidate
          aria-label={t('formLabel')}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="md">
            {refusal.length ? (
              <Alert variant="light" color="orange" role="alert" title={t('refused')}>
                {refusal.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </Alert>
            ) : null}
            {restored ? (
              <Alert variant="light" color="blue" role="status">
                <Group justify="space-between" gap="xs">
                  <span>{t('draft.restored', { when: new Date(restored).toLocaleString() })}</span>
                  <button type="button" className={classes.danger} onClick={() => void discard()}>
                    {t('draft.discard')}
                  </button>
                </Group>
              </Alert>
            ) : null}
            {logicNeeded && (version?.languages.length ?? 0) > 1 ? (
              <FormLanguageSelect
                languages={version!.languages}
                value={lang}
                onChange={(l) => void i18n.loadLanguages(l).then(() => setLang(l))}
                uiLanguage={i18n.language}
                label={t('logic.language')}
              />
            ) : null}
            {!logicNeeded ? (
              fields.map((f) => (
                <FieldInput
                  key={f.uuid}
                  field={f}
                  value={answers[f.uuid] ?? null}
                  error={errors[f.uuid]}
                  onChange={(v) => change(f.uuid, v)}
                />
              ))
            ) : kit && form && store ? (
              <div lang={lang ?? undefined} className={classes.logic}>
                <kit.LogicFields form={form} store={store} lang={lang} {...stable} />
              </div>
            ) : kit && !form ? (
              <Alert color="red" variant="light" role="alert">
                {t('logic.broken')}
              </Alert>
            ) : (
              <Text c="dimmed" role="status">
                {t('logic.loading')}
              </Text>
            )}
            {Object.keys(errors).length ? (
              <Alert color="red" variant="light" role="alert">
                {t('collect:errors.fix')}
              </Alert>
            ) : null}
            <button type="submit" className={classes.primary}>
              {t('send')}
            </button>
            {queued ? (
              <Text role="status" size="sm">
                {queue.online ? t('queuedOnline') : t('queuedOffline')}
              </Text>
            ) : null}
          </Stack>
        </form>
      )}
      <QueuePanel
        items={queue.items}
        fields={fields}
        online={queue.online}
        sending={queue.sending}
        stoppedBy={queue.stoppedBy}
        onSend={() => void queue.send()}
        onEdit={(item) => void edit(item)}
        onDelete={(item) => void queue.remove(item.local_id)}
      />
    </Stack>
  );
}

type LogicKit = typeof LogicKitModule;

/** Where a form with logic starts: see CollectForm's `base`. */
interface LogicBase {
  tree: FormAnswers | null;
  drafts: Answers;
  errors: Record<string, string>;
}
const EMPTY_BASE: LogicBase = { tree: null, drafts: {}, errors: {} };

/**
 * The session path (`member.1.age`) of a refusal's key as the queue keeps it (send-queue's
 * errorsByField: field uuids and instance indexes, `<member uuid>.1.<age uuid>`; `data.age`, a
 * top-level required answer the service found missing): each uuid becomes its field's name.
 * Other keys (`project`) are returned as they are.
 */
function sessionPathOf(key: string, fields: readonly Field[]): string {
  const named = key.startsWith('data.') ? key.slice('data.'.length) : key;
  const parts = named.split('.');
  const byUuid = (part: string) => fields.find((f) => f.uuid === part)?.name;
  if (key === named && !byUuid(parts[0]!)) return key;
  return parts.map((part) => byUuid(part) ?? part).join('.');
}
