import { NativeSelect } from '@mantine/core';
// The public web form loads only the Mantine styles it uses (app/public-styles.ts): the input's
// and the select's chevron (without them the chevron showed as a huge bare icon).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';

/**
 * The switch between a form's languages (form model, "Languages"), on the web form and in the
 * form builder's preview: Mantine's NativeSelect, as every other choice list of the console
 * (a labelled native `select`: the arrow keys change the language, screen readers announce the
 * label and the language chosen). Each language is named in the console's language and, when
 * that differs, in its own ("French · français"), so a collector who reads only the form's
 * language still finds it. `label` comes translated from the page.
 */
export function FormLanguageSelect(props: {
  languages: readonly string[];
  /** The language shown, a code of `languages`. */
  value: string | null;
  onChange: (lang: string) => void;
  label: string;
  /** The console's language (i18next's `language`). */
  uiLanguage: string;
}) {
  return (
    <NativeSelect
      label={props.label}
      value={props.value ?? ''}
      data={props.languages.map((code) => ({ value: code, label: languageOption(code, props.uiLanguage) }))}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      style={{ maxWidth: '20rem' }}
    />
  );
}

/** "French · français" (in an English console), "français" (in a French one), the code when unknown. */
function languageOption(code: string, uiLanguage: string): string {
  const inUi = nameOf(code, uiLanguage);
  const own = nameOf(code, code);
  return own && inUi && own.toLocaleLowerCase(code) !== inUi.toLocaleLowerCase(uiLanguage)
    ? `${inUi} · ${own}`
    : (inUi ?? own ?? code);
}

function nameOf(code: string, inLanguage: string): string | undefined {
  try {
    const name = new Intl.DisplayNames([inLanguage], { type: 'language' }).of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}
