/**
 * The language-model port (DESIGN.md "language"): one chat call that may use tools, run to an answer.
 * Implementations talk to a model server; callers keep a deterministic answer ready, because a model may be
 * absent, slow or wrong: any `LlmError` means "answer without me".
 */

/** A part of a user message: text, or an image by URL (https or a `data:` URL). */
export type LlmContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | LlmContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A function the model may call: its JSON Schema, and the code that answers it. */
export interface LlmTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Runs the call; the result goes back to the model as JSON. A throw is reported to the model as an error. */
  run(args: unknown): Promise<unknown>;
}

export interface LlmChatRequest {
  messages: LlmMessage[];
  tools?: LlmTool[];
  /** Model calls at most (each tool round is one); the last one is made without tools, to get an answer. */
  maxRounds?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface LlmChatResult {
  text: string;
  /** Model calls made. */
  rounds: number;
  /** Every tool call the model made, in order, with the arguments it gave. */
  toolCalls: { name: string; arguments: unknown }[];
}

export type LlmFailure = 'timeout' | 'http' | 'invalid_response' | 'empty_answer';

export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface Llm {
  /** The model's name, for logs. */
  readonly model: string;
  /** Whether images may be sent (`LLM_VISION`). */
  readonly acceptsImages: boolean;
  /** Runs the conversation, with tool rounds, to the model's text answer; throws `LlmError` on any failure. */
  chat(request: LlmChatRequest): Promise<LlmChatResult>;
}

export const DEFAULT_MAX_ROUNDS = 4;

/** A `data:` URL of image bytes, for models that should not (or cannot) fetch a URL themselves. */
export function imageDataUrl(bytes: Buffer, contentType: string): string {
  return `data:${contentType};base64,${bytes.toString('base64')}`;
}
