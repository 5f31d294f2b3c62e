export { compile } from './compile.ts';
export type { CompileOptions, CompileResult, EvaluationContext, Expression } from './compile.ts';
export { parse } from './parse.ts';
export type { ExpressionError, ParseResult, Position } from './parse.ts';
export type { Node } from './ast.ts';
export { FUNCTIONS } from './functions.ts';
export {
  clearDateCache,
  DateValue,
  NodeSet,
  nodes,
  toBoolean,
  toNumber,
  toText,
  type Answer,
  type Value,
} from './values.ts';
export type * from './form-types.ts';
export { compileForm, APPEARANCES } from './form-compile.ts';
export { formTree } from './form-tree.ts';
