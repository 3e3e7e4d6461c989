// The front door of the helper's sign-in.
export { createSession, type Session, type SessionStatus } from './session.js';
export { createSessionStore, type SessionStore, type StoredSession } from './session-store.js';
