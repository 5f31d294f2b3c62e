import { useId, type InputHTMLAttributes } from 'react';
import classes from './TextField.module.css';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  description?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  /** Marks the field for focusing the first error (`[data-field=...] input`). */
  field?: string;
}

/**
 * A labelled text input with its hint and its error tied to it (`aria-describedby`,
 * `aria-invalid`), styled with Mantine's variables. A native element, not Mantine's TextInput:
 * the voting page's and the web form's JavaScript budgets (scripts/vote-budget.ts) have no room
 * for its input stack.
 */
export function TextField({ label, description, error, value, onChange, field, required, ...input }: Props) {
  const id = useId();
  const described = [description ? `${id}-d` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ');
  return (
    <div className={classes.root} data-field={field}>
      <label htmlFor={id} className={classes.label}>
        {label}
        {required ? (
          <span className={classes.required} aria-hidden>
            {' *'}
          </span>
        ) : null}
      </label>
      {description ? (
        <p id={`${id}-d`} className={classes.description}>
          {description}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        required={required}
        className={classes.input}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p id={`${id}-e`} className={classes.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
