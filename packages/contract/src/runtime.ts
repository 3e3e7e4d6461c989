/**
 * The contract's plain values, without zod: what a browser bundle needs at run time (constants, messages,
 * error codes, languages, phone rules). Types and schemas come from the package root.
 */
export * from './cameras.runtime.js';
export * from './constants.js';
export * from './errors.js';
export * from './languages.js';
export * from './messages.js';
export * from './phone.js';
export * from './chat.constants.js';
export * from './memories.runtime.js';
export * from './activities.runtime.js';
export * from './routes.runtime.js';
export * from './helper.runtime.js';
export * from './billing.runtime.js';
export * from './nest.runtime.js';
