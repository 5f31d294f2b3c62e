/**
 * The syntax tree the parser produces (src/grammar.peggy). `start` is the 0-based offset of the
 * node's first character in the expression text.
 */
export type BinaryOperator =
  'or' | 'and' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | 'div' | 'mod';

export type Node =
  | { type: 'number'; value: number; start: number }
  | { type: 'string'; value: string; start: number }
  | { type: 'ref'; name: string; syntax: 'dollar'; text: string; start: number }
  | { type: 'path'; steps: string[]; absolute: boolean; text: string; start: number }
  | { type: 'binary'; op: BinaryOperator; left: Node; right: Node; start: number }
  | { type: 'negate'; operand: Node; start: number }
  | { type: 'union'; operands: Node[]; start: number }
  | { type: 'call'; name: string; args: Node[]; start: number };
