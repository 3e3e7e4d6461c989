/**
 * The realtime fan-out port (DESIGN.md "realtime fan-out"): an event for a user, published on any server
 * instance, reaches every instance so each can deliver it to the user's connections it holds.
 */
export interface FanoutMessage {
  userId: string;
  event: string;
  payload: unknown;
}

export interface Fanout {
  readonly kind: 'in-process' | 'redis';
  /** Resolves once the message is handed to the transport (not when every instance has it). */
  publish(message: FanoutMessage): Promise<void>;
  /** Registers the one receiver of this instance; it is called for messages of every instance, this one too. */
  subscribe(receiver: (message: FanoutMessage) => void): Promise<void>;
  close(): Promise<void>;
}
