import type { ReactNode } from 'react';
import type { Field } from '../collection/types.ts';
import classes from './Collect.module.css';

/**
 * A field's name as its group's `legend` (or a `label` with `htmlFor`), with the red star of a
 * required field hidden from screen readers (the input says "required" itself).
 */
export function FieldLegend({
  field,
  htmlFor,
  children,
}: {
  field: Field;
  htmlFor?: string;
  children?: ReactNode;
}) {
  const content = (
    <>
      {field.label}
      {field.required ? (
        <span className={classes.required} aria-hidden>
          {' *'}
        </span>
      ) : null}
      {children}
    </>
  );
  return htmlFor ? (
    <label htmlFor={htmlFor} className={classes.legend}>
      {content}
    </label>
  ) : (
    <legend className={classes.legend}>{content}</legend>
  );
}
