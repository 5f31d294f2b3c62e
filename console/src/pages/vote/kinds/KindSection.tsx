import { useEffect, useId, useRef, useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Section } from '../../poll-public/types.ts';
import choice from '../SectionChoice.module.css';
import classes from './KindSection.module.css';

/** A meeting slot's answer (docs/polls.md, "Section kinds"). */
type Availability = 'yes' | 'if_need_be' | 'no';
/** The answer of a section that is not single: chosen or ranked option ids, or slot answers. */
export type KindAnswer = string[] | Record<string, Availability>;

interface Props {
  section: Section;
  value: KindAnswer | undefined;
  error: string | undefined;
  onChange: (answer: KindAnswer) => void;
}

/**
 * A section that is not single, in the voting page's lazy chunk (loaded only for polls that
 * have one, so the voting page's initial JavaScript stays within its budget): `multiple`
 * checkboxes, the `ranked` list and the `meeting` grid. Native elements, every action a button
 * or a form control with its own name (keyboard and screen readers; never drag-only).
 */
export default function KindSection(props: Props) {
  const errorId = useId();
  const { section, error } = props;
  const body =
    section.kind === 'multiple' ? (
      <MultipleChoice {...props} />
    ) : section.kind === 'ranked' ? (
      <RankedChoice {...props} />
    ) : (
      <MeetingGrid {...props} />
    );
  return (
    <fieldset
      className={choice.fieldset}
      data-field={`answers.${section.id}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className={choice.legend}>{section.title}</legend>
      {body}
      {error ? (
        <p id={errorId} className={choice.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Checkboxes: `min_choices` to `max_choices` options (the hint says how many). */
function MultipleChoice({ section, value, error, onChange }: Props) {
  const { t } = useTranslation('vote');
  const chosen = Array.isArray(value) ? value : [];
  const min = section.min_choices ?? 1;
  const max = section.max_choices ?? section.options.length;
  return (
    <>
      <p className={classes.hint}>
        {min === max ? t('kinds.pickExactly', { count: min }) : t('kinds.pickBetween', { min, max })}
      </p>
      <div className={choice.options}>
        {section.options.map((option) => {
          const checked = chosen.includes(option.id);
          return (
            <label key={option.id} className={choice.option} data-checked={checked || undefined}>
              <input
                type="checkbox"
                className={choice.radio}
                name={`section-${section.id}`}
                value={option.id}
                checked={checked}
                aria-invalid={error ? true : undefined}
                onChange={() =>
                  onChange(checked ? chosen.filter((id) => id !== option.id) : [...chosen, option.id])
                }
              />
              <span>{option.label}</span>
            </label>
          );
        })}
      </div>
    </>
  );
}

/**
 * The ranking: "Your order" (numbered; Move up, Move down, Remove) and "Not ranked yet" (Add).
 * Focus stays on the moved option's button; a polite live region says where it went.
 */
function RankedChoice({ section, value, onChange }: Props) {
  const { t } = useTranslation('vote');
  const ranking = Array.isArray(value) ? value : [];
  const labelOf = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  const rest = section.options.filter((o) => !ranking.includes(o.id));
  const [said, setSaid] = useState('');
  const focusNext = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    const target = root.current?.querySelector<HTMLButtonElement>(`[data-focus="${focusNext.current}"]`);
    focusNext.current = null;
    if (target && !target.disabled) target.focus();
    else root.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  });
  const set = (next: string[], id: string, focus: string, message: string) => {
    focusNext.current = `${focus}:${id}`;
    setSaid(message);
    onChange(next);
  };
  const move = (i: number, to: number) => {
    const next = [...ranking];
    const [id] = next.splice(i, 1);
    next.splice(to, 0, id!);
    set(next, id!, to < i ? 'up' : 'down', t('kinds.movedTo', { label: labelOf(id!), rank: to + 1 }));
  };
  return (
    <div ref={root}>
      <p className={classes.hint}>{t('kinds.rankHint')}</p>
      <p className={classes.listTitle} id={`ranked-${section.id}`}>
        {t('kinds.yourOrder')}
      </p>
      {ranking.length ? (
        <ol className={classes.list} aria-labelledby={`ranked-${section.id}`}>
          {ranking.map((id, i) => {
            const label = labelOf(id);
            return (
              <li key={id} className={`${classes.item} ${classes.ranked}`}>
                <span className={classes.rank} aria-hidden>
                  {i + 1}.
                </span>
                <span className={classes.label}>{label}</span>
                <button
                  type="button"
                  className={classes.button}
                  data-focus={`up:${id}`}
                  aria-label={t('kinds.moveUp', { label, rank: i + 1 })}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={classes.button}
                  data-focus={`down:${id}`}
                  aria-label={t('kinds.moveDown', { label, rank: i + 1 })}
                  disabled={i === ranking.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className={classes.button}
                  aria-label={t('kinds.unrank', { label })}
                  onClick={() =>
                    set(
                      ranking.filter((x) => x !== id),
                      id,
                      'add',
                      t('kinds.unranked', { label }),
                    )
                  }
                >
                  ✕
                </button>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className={classes.hint}>{t('kinds.nothingRanked')}</p>
      )}
      {rest.length ? (
        <>
          <p className={classes.listTitle} id={`unranked-${section.id}`}>
            {t('kinds.notRanked')}
          </p>
          <ul className={classes.list} aria-labelledby={`unranked-${section.id}`}>
            {rest.map((o) => (
              <li key={o.id} className={classes.item}>
                <span className={classes.label}>{o.label}</span>
                <button
                  type="button"
                  className={classes.button}
                  data-focus={`add:${o.id}`}
                  aria-label={t('kinds.rank', { label: o.label, rank: ranking.length + 1 })}
                  onClick={() =>
                    set(
                      [...ranking, o.id],
                      o.id,
                      'up',
                      t('kinds.movedTo', { label: o.label, rank: ranking.length + 1 }),
                    )
                  }
                >
                  {t('kinds.add')}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className={classes.srOnly} aria-live="polite">
        {said}
      </div>
    </div>
  );
}

const ANSWERS: readonly Availability[] = ['yes', 'if_need_be', 'no'];

/**
 * The ballot's check of the sections that are not single, as the service makes it (the voting
 * page calls it on Vote once this chunk has loaded): the number of choices of a multiple
 * section, at least one ranked option. Field keys are the service's (`answers.<section id>`).
 * It reads the current i18next translator.
 */
export function kindChecker() {
  return (sections: Section[], answers: Record<string, KindAnswer>): Record<string, string> => {
    const t = i18next.getFixedT(null, 'vote');
    const found: Record<string, string> = {};
    for (const s of sections) {
      const answer = answers[s.id];
      const n = Array.isArray(answer) ? answer.length : 0;
      if (s.kind === 'multiple') {
        const min = s.min_choices ?? 1;
        const max = s.max_choices ?? s.options.length;
        if (n < min || n > max)
          found[`answers.${s.id}`] =
            min === max ? t('kinds.pickExactly', { count: min }) : t('kinds.pickBetween', { min, max });
      } else if (s.kind === 'ranked' && n === 0) found[`answers.${s.id}`] = t('kinds.rankOne');
    }
    return found;
  };
}

/** One radio group per slot (yes / if need be / no; unanswered slots count as no). */
function MeetingGrid({ section, value, onChange }: Props) {
  const { t, i18n } = useTranslation('vote');
  const answers = value && !Array.isArray(value) ? value : {};
  const when = (iso: string | undefined, end: string | null | undefined) => {
    if (!iso) return '';
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' });
    const start = format.format(new Date(iso));
    return end
      ? `${start} – ${new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(end))}`
      : start;
  };
  return (
    <>
      <p className={classes.hint}>{t('kinds.meetingHint')}</p>
      {section.options.map((o) => {
        const current = answers[o.id] ?? 'no';
        return (
          <fieldset key={o.id} className={classes.slot}>
            <legend className={classes.slotLegend}>
              {o.label}
              <span className={classes.slotWhen}>{when(o.starts_at, o.ends_at)}</span>
            </legend>
            <div className={classes.answers}>
              {ANSWERS.map((a) => (
                <label key={a} className={classes.answer} data-checked={current === a ? a : undefined}>
                  <input
                    type="radio"
                    name={`slot-${o.id}`}
                    value={a}
                    checked={current === a}
                    onChange={() => onChange({ ...answers, [o.id]: a })}
                  />
                  {t(`kinds.availability.${a}`)}
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
    </>
  );
}
