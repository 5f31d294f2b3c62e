import { useMemo, type ReactNode } from 'react';
import { Autocomplete } from '@mantine/core';
import { compile, type ExpressionError } from '@fieldhouse/form-logic';
import { useTranslation } from 'react-i18next';

/** The `${partial` being typed at the end of `text`, if any: where it starts and what is typed. */
function openReference(text: string): { start: number; partial: string } | null {
  const m = /\$\{([A-Za-z0-9_]*)$/.exec(text);
  return m ? { start: m.index, partial: m[1] ?? '' } : null;
}

/**
 * The error of an expression as the user reads it: the message of its `code` in the console's
 * language (`formLogic:errors.<code>`), with the column of the library's position; null when it
 * compiles against `fields` (the version's field names) or is empty.
 */
function useExpressionError(source: string, fields: readonly string[]): string | null {
  const { t } = useTranslation('formLogic');
  return useMemo(() => {
    if (!source.trim()) return null;
    const result = compile(source, { fields });
    if (result.ok) return null;
    const e: ExpressionError = result.error;
    const reference = /^\$\{[^}]*\}|^[A-Za-z_][\w.:-]*/.exec(source.slice(e.position.offset))?.[0] ?? '';
    return t(`errors.${e.code}`, { column: e.position.column, line: e.position.line, reference });
  }, [source, fields, t]);
}

/**
 * A text box for an expression of the form model (`relevant`, `constraint`, `calculation`...):
 * checked as it is typed with the library's `compile` against the version's field names (the
 * message and its column under the box, in the user's language), and `${` offers the field
 * names to complete the reference (arrow keys and Enter pick one).
 */
export function ExpressionInput(props: {
  label: string;
  description?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The version's field names a `${name}` may reference. */
  fields: readonly string[];
  /** An error from elsewhere (the service's 422), shown when the text itself compiles. */
  error?: ReactNode;
  placeholder?: string;
}) {
  const error = useExpressionError(props.value, props.fields);
  const open = openReference(props.value);
  const options = useMemo(() => {
    if (!open) return [];
    const head = props.value.slice(0, open.start);
    return props.fields
      .filter((n) => n.toLowerCase().startsWith(open.partial.toLowerCase()))
      .slice(0, 20)
      .map((n) => `${head}\${${n}}`);
  }, [open, props.value, props.fields]);
  return (
    <Autocomplete
      label={props.label}
      description={props.description}
      placeholder={props.placeholder}
      value={props.value}
      onChange={props.onChange}
      data={options}
      filter={({ options: o }) => o}
      renderOption={({ option }) => <code>{option.value.slice(open?.start ?? 0)}</code>}
      error={error ?? props.error}
      spellCheck={false}
      autoComplete="off"
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}
