/**
 * Type-only imports of the form engine for the logic-aware renderer: importing types keeps
 * @fieldhouse/form-logic out of a page's initial JavaScript (the engine is loaded with import()
 * only for versions that need it).
 */
export type {
  CompiledForm,
  FormAnswers,
  FormChoice,
  FormEntry,
  FormNode,
  FormSession,
  NodeState,
  SessionChange,
} from '@fieldhouse/form-logic';

/** The texts of a node that may be given per language (form-model.md, "Languages"). */
export interface FormNodeTexts {
  label?: string;
  hint?: string;
  constraint_message?: string;
  required_message?: string;
}
