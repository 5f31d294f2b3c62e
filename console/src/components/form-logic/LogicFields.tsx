import { memo, useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../pages/collection/types.ts';
import type { Answer } from '../../pages/collect/answers.ts';
import { FieldInput } from '../../pages/collect/FieldInput.tsx';
import classes from '../../pages/collect/Collect.module.css';
import { choiceLabel, textIn, valueAt } from './logic-texts.ts';
import { typesInPlace, type LogicStore } from './logic-store.ts';
import type { CompiledForm, FormNode, NodeState } from './logic-types.ts';

/** What {@link LogicFields} shows and reports; answers live in a form-logic session. */
interface LogicFieldsProps {
  form: CompiledForm;
  /** The session, what was typed and the messages, by session path (`age`, `member.1.age`). */
  store: LogicStore;
  /** A code of the version's languages, or null for a one-language form. */
  lang: string | null;
  disabled?: boolean;
  onChange: (path: string, node: FormNode, draft: Answer) => void;
  onAddInstance: (path: string) => void;
  onRemoveInstance: (path: string, index: number) => void;
}

/**
 * The fields of a form with logic, as the session evaluates them (docs/console.md, "Web form"):
 * questions whose `relevant` is false are not shown, required markers follow `required_if`,
 * a constraint that fails shows the form's message under the field, choices are those the
 * `choice_filter` lets through, `read_only` fields cannot be changed, calculations show their
 * value, groups are fieldsets with a legend, repeats show each instance ("Member 2 of 3") with
 * buttons to add and remove instances within `min_repeats`/`max_repeats` (none with a
 * `repeat_count`), notes and hints show as text. Texts are in `lang` (with the default language's
 * where a translation is missing). Used by the web form and the form builder's preview.
 */
export function LogicFields(props: LogicFieldsProps) {
  // Each top-level node in a block the browser lays out only when on screen (Collect.module.css).
  return (
    <>
      {renderNodes(props, props.form.definition.nodes, '').map((node) => (
        <div key={node.key} className={classes.block}>
          {node}
        </div>
      ))}
    </>
  );
}

function renderNodes(props: LogicFieldsProps, nodes: readonly FormNode[], prefix: string) {
  return nodes.map((node) => (
    <LogicNode
      key={prefix + node.name}
      form={props.form}
      store={props.store}
      lang={props.lang}
      disabled={props.disabled}
      onChange={props.onChange}
      onAddInstance={props.onAddInstance}
      onRemoveInstance={props.onRemoveInstance}
      node={node}
      path={prefix + node.name}
    />
  ));
}

/**
 * One node. It re-renders only when the store marks its path changed (its props are stable), so
 * a keystroke costs the nodes whose state it changed, not the whole form: a text-like input keeps
 * what is typed itself (uncontrolled) and a calculation's output updates in place.
 */
const LogicNode = memo(function LogicNode(props: LogicFieldsProps & { node: FormNode; path: string }) {
  const { node, path, store, lang } = props;
  const session = store.session;
  const subscribe = useCallback((listener: () => void) => store.subscribe(path, listener), [store, path]);
  useSyncExternalStore(subscribe, () => store.revision(path));
  const state = session.nodeAt(path);
  // Not relevant: hidden, not removed (as Enketo does): a question that comes and goes with a
  // keystroke costs an attribute, not React unmounting and mounting its subtree.
  const hidden = !state.relevant;
  const label = textIn(node, 'label', lang) || node.name;
  const hint = textIn(node, 'hint', lang);
  if (node.type === 'group')
    return (
      <fieldset className={classes.group} hidden={hidden} data-field={path}>
        <legend className={classes.groupLegend}>{label}</legend>
        {hint ? <p className={classes.hint}>{hint}</p> : null}
        {renderNodes(props, node.children ?? [], path.slice(0, path.length - node.name.length))}
      </fieldset>
    );
  if (node.type === 'repeat') return <RepeatBlock {...props} label={label} hint={hint} state={state} />;
  if (node.type === 'note')
    return (
      <div className={classes.noteBlock} hidden={hidden} data-field={path}>
        <p className={classes.noteText}>{label}</p>
        {hint ? <p className={classes.hint}>{hint}</p> : null}
      </div>
    );
  if (node.type === 'calculate') {
    // Hidden unless the form gives it a label: then its value shows, as ODK's read-only output.
    if (!node.label) return null;
    return (
      <div className={classes.noteBlock} hidden={hidden} data-field={path}>
        <p className={classes.noteText}>
          {label}: <CalculatedOutput store={store} path={path} />
        </p>
      </div>
    );
  }
  const choices = (state.choices ?? node.choices ?? null)?.map((c) => ({
    value: c.value,
    label: choiceLabel(c, lang),
  }));
  const invalid = !state.valid
    ? textIn(node, 'constraint_message', lang) ||
      i18next.t('collectPage:logic.notAllowed', { lng: lang ?? undefined })
    : undefined;
  const field = {
    ...(node as unknown as Field),
    uuid: path,
    label,
    required: state.required,
    choices: choices ?? null,
    constraints: (node as unknown as Partial<Field>).constraints ?? {},
  } as Field;
  const draft = path in store.drafts ? store.drafts[path]! : draftOf(valueAt(session.answers, path));
  return (
    <FieldInput
      field={field}
      hint={hint || undefined}
      value={draft}
      error={store.errors[path] ?? invalid}
      disabled={props.disabled || state.readOnly}
      uncontrolled={typesInPlace(node)}
      hidden={hidden}
      onChange={(v) => props.onChange(path, node, v)}
    />
  );
});

/**
 * A calculation's value, written into the output by the store's watch ({@link LogicStore.watchValue})
 * rather than by a render: React never holds its text, so the two cannot disagree.
 */
function CalculatedOutput({ store, path }: { store: LogicStore; path: string }) {
  const ref = useRef<HTMLOutputElement>(null);
  useLayoutEffect(() => {
    // One text node, its data replaced on each change (cheaper than textContent's new node).
    const text = document.createTextNode(store.session.calculated(path));
    ref.current?.replaceChildren(text);
    return store.watchValue(path, () => {
      text.data = store.session.calculated(path);
    });
  }, [store, path]);
  return <output ref={ref} />;
}

/** A session value (a default, a restored answer) as the input shows it. */
export function draftOf(value: unknown): Answer {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) {
    if (value.length === 4 && value.every((n) => typeof n === 'number'))
      return {
        latitude: String(value[0]),
        longitude: String(value[1]),
        altitude: String(value[2]),
        accuracy: String(value[3]),
      };
    return value.map(String);
  }
  if (typeof value === 'object') return value as Answer;
  return String(value);
}

/**
 * A repeat: its instances ("Member 2 of 3"), each with "Remove", and "Add" below, within its
 * bounds; none with a `repeat_count`. The console's words are in the form's language when it has it.
 */
function RepeatBlock(
  props: LogicFieldsProps & {
    node: FormNode;
    path: string;
    label: string;
    hint: string;
    state: NodeState;
  },
) {
  const { node, path, store, lang, label, hint, state } = props;
  const session = store.session;
  const { t } = useTranslation('collectPage', { lng: lang ?? undefined });
  const list = valueAt(session.answers, path);
  const count = Array.isArray(list) ? list.length : 0;
  const fixed = node.repeat_count !== null && node.repeat_count !== undefined && node.repeat_count !== '';
  const min = state.repeat?.min ?? 0;
  const max = state.repeat?.max ?? Infinity;
  return (
    <fieldset className={classes.group} hidden={!state.relevant} data-field={path}>
      <legend className={classes.groupLegend}>{label}</legend>
      {hint ? <p className={classes.hint}>{hint}</p> : null}
      {Array.from({ length: count }, (_, i) => (
        <section
          key={i}
          className={classes.instance}
          aria-label={t('logic.instance', { label, n: i + 1, count })}
        >
          <div className={classes.instanceHead}>
            <h3 className={classes.instanceTitle}>{t('logic.instance', { label, n: i + 1, count })}</h3>
            {!fixed && !props.disabled ? (
              <button
                type="button"
                className={classes.remove}
                disabled={count <= min}
                onClick={() => props.onRemoveInstance(path, i)}
              >
                {t('logic.remove', { label, n: i + 1 })}
              </button>
            ) : null}
          </div>
          {renderNodes(props, node.children ?? [], `${path}.${i}.`)}
        </section>
      ))}
      {count === 0 ? <p className={classes.hint}>{t('logic.noInstance')}</p> : null}
      {!fixed && !props.disabled && count < max ? (
        <button type="button" className={classes.button} onClick={() => props.onAddInstance(path)}>
          {t('logic.add', { label })}
        </button>
      ) : null}
      {store.errors[path] ? <p className={classes.error}>{store.errors[path]}</p> : null}
    </fieldset>
  );
}
