export * from './runtime.js';
export * from './auth.js';
export * from './common.js';
export * from './endpoint.js';
export * from './endpoints.js';
export * from './envelope.js';
export * from './users.js';
