import { useId, useLayoutEffect, useRef, type InputHTMLAttributes } from 'react';
import classes from './TextField.module.css';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  description?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  /** Marks the field for focusing the first error (`[data-field=...] input`). */
  field?: string;
  /**
   * The input keeps what is typed itself and `value` is written into it only when it differs
   * from what it holds (a restored draft, a reset): its owner need not re-render on each
   * keystroke. Without it the input is controlled as usual.
   */
  uncontrolled?: boolean;
  /** Out of sight and of the accessibility tree, kept in the page (a question not relevant). */
  hidden?: boolean;
}

/**
 * A labelled text input with its hint and its error tied to it (`aria-describedby`,
 * `aria-invalid`), styled with Mantine's variables. A native element, not Mantine's TextInput:
 * the voting page's and the web form's JavaScript budgets (scripts/vote-budget.ts) have no room
 * for its input stack.
 */
export function TextField({
  label,
  description,
  error,
  value,
  onChange,
  field,
  required,
  uncontrolled,
  hidden,
  ...input
}: Props) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (uncontrolled && ref.current && ref.current.value !== value) ref.current.value = value;
  }, [uncontrolled, value]);
  const described = [description ? `${id}-d` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ');
  return (
    <div className={classes.root} hidden={hidden} data-field={field}>
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
        ref={ref}
        className={classes.input}
        {...(uncontrolled ? { defaultValue: value } : { value })}
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
