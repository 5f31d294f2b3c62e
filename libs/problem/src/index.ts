export * from './problem.ts';
export * from './validate.ts';
export * from './middleware.ts';
export * from './text.ts';
export * from './store-errors.ts';
export * from './catalogue.ts';
export * from './kinds.ts';
