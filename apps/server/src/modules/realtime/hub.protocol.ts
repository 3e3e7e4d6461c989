/**
 * The parts of the ASP.NET Core SignalR JSON hub protocol the hub speaks, so the official
 * `@microsoft/signalr` client connects unchanged: records end with 0x1e; after the handshake
 * `{"protocol":"json","version":1}` the server answers `{}`; then invocations (1), completions (3),
 * pings (6) and close (7).
 */
export const RECORD_SEPARATOR = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export const frame = (message: unknown) => JSON.stringify(message) + RECORD_SEPARATOR;

export const PING_FRAME = frame({ type: MessageType.Ping });
export const HANDSHAKE_OK = frame({});

export function invocationFrame(target: string, payload: unknown): string {
  return frame({ type: MessageType.Invocation, target, arguments: [payload] });
}

export function closeFrame(error?: string, allowReconnect = false): string {
  return frame({ type: MessageType.Close, ...(error ? { error } : {}), allowReconnect });
}

/** Splits what arrived into complete records; the remainder waits for the next chunk. */
export function splitRecords(buffer: string): { records: string[]; rest: string } {
  const parts = buffer.split(RECORD_SEPARATOR);
  const rest = parts.pop() ?? '';
  return { records: parts.filter((p) => p.length > 0), rest };
}

export interface HubMessage {
  type?: number;
  invocationId?: string;
  target?: string;
  protocol?: string;
  version?: number;
}

export function parseRecord(record: string): HubMessage | null {
  try {
    const value: unknown = JSON.parse(record);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}
