import { useId } from 'react';
import type { Field } from '../collection/types.ts';
import classes from './Collect.module.css';
import { FieldLegend } from './FieldLegend.tsx';

/**
 * A single or multiple choice as a native fieldset of radio buttons or checkboxes (arrow keys
 * move between radios, Space checks), with the field's error tied to the group.
 */
export function ChoiceInput(props: {
  field: Field;
  hint?: string;
  value: string | string[] | null;
  error?: string;
  disabled?: boolean;
  /** Not relevant (form logic): kept in the page, out of sight and of the accessibility tree. */
  hidden?: boolean;
  onChange: (value: string | string[] | null) => void;
}) {
  const id = useId();
  const { field } = props;
  const multiple = field.type === 'select_multiple';
  const chosen = new Set(Array.isArray(props.value) ? props.value : props.value ? [props.value] : []);
  return (
    <fieldset
      className={classes.fieldset}
      aria-describedby={props.error ? `${id}-e` : undefined}
      aria-invalid={props.error ? true : undefined}
      disabled={props.disabled}
      hidden={props.hidden}
      data-field={field.uuid}
    >
      <FieldLegend field={field} />
      {props.hint ? <p className={classes.hint}>{props.hint}</p> : null}
      {(field.choices ?? []).map((choice) => (
        <label key={choice.value} className={classes.option}>
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={`${id}-choice`}
            value={choice.value}
            checked={chosen.has(choice.value)}
            onChange={(e) => {
              if (!multiple) return props.onChange(choice.value);
              const next = new Set(chosen);
              if (e.currentTarget.checked) next.add(choice.value);
              else next.delete(choice.value);
              props.onChange((field.choices ?? []).map((c) => c.value).filter((v) => next.has(v)));
            }}
          />
          {choice.label}
        </label>
      ))}
      {props.error ? (
        <p id={`${id}-e`} className={classes.error}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
