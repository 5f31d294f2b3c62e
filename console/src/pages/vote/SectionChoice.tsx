import { useId } from 'react';
import type { Section } from '../poll-public/types.ts';
import classes from './SectionChoice.module.css';

interface Props {
  section: Section;
  value: string | undefined;
  error: string | undefined;
  onChange: (optionId: string) => void;
}

/**
 * One section of the ballot: a native radio group in a fieldset whose legend is the section's
 * title (the browser gives arrow-key navigation and one tab stop per group). Each option is a
 * full-width row, easy to hit on a phone. Native elements rather than Mantine's Radio keep the
 * voting page within its JavaScript budget (scripts/vote-budget.ts).
 */
export function SectionChoice({ section, value, error, onChange }: Props) {
  const errorId = useId();
  return (
    <fieldset
      className={classes.fieldset}
      data-field={`votes.${section.id}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className={classes.legend}>{section.title}</legend>
      <div className={classes.options}>
        {section.options.map((option) => (
          <label key={option.id} className={classes.option} data-checked={value === option.id || undefined}>
            <input
              type="radio"
              className={classes.radio}
              name={`section-${section.id}`}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
              aria-invalid={error ? true : undefined}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={classes.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
