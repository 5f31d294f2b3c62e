import { DateValue, NodeSet, textNumber, toBoolean, toNumber, toText, type Value } from './values.ts';

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

function compareNumbers(op: ComparisonOperator, a: number, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/** Two values that are not node-sets: XPath 1.0 §3.4 (booleans, then numbers or dates, then strings). */
export function compareAtoms(op: ComparisonOperator, a: Value, b: Value): boolean {
  if (op === '=' || op === '!=') {
    if (typeof a === 'boolean' || typeof b === 'boolean') {
      return (toBoolean(a) === toBoolean(b)) === (op === '=');
    }
    const numeric =
      typeof a === 'number' || typeof b === 'number' || a instanceof DateValue || b instanceof DateValue;
    if (!numeric) return (toText(a) === toText(b)) === (op === '=');
  }
  return compareNumbers(op, toNumber(a), toNumber(b));
}

/**
 * XPath 1.0 §3.4 comparison: a node-set compares true when some node's string value compares true
 * (against a boolean, the node-set's boolean value is compared instead).
 */
export function compare(op: ComparisonOperator, a: Value, b: Value): boolean {
  if (a instanceof NodeSet) {
    if (b instanceof NodeSet) {
      const relational = op !== '=' && op !== '!=';
      for (const x of a.values) {
        for (const y of b.values) {
          if (relational ? compareNumbers(op, textNumber(x), textNumber(y)) : (x === y) === (op === '='))
            return true;
        }
      }
      return false;
    }
    if (typeof b === 'boolean') return compareAtoms(op, toBoolean(a), b);
    for (const x of a.values) if (compareAtoms(op, x, b)) return true;
    return false;
  }
  if (b instanceof NodeSet) {
    if (typeof a === 'boolean') return compareAtoms(op, a, toBoolean(b));
    for (const y of b.values) if (compareAtoms(op, a, y)) return true;
    return false;
  }
  return compareAtoms(op, a, b);
}
