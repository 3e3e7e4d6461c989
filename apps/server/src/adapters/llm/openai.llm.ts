/**
 * Any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp's server): `POST {base}/chat/completions`
 * with function tools. The whole conversation, tool rounds included, must finish within the timeout.
 */
import { z } from 'zod';
import {
  DEFAULT_MAX_ROUNDS,
  LlmError,
  type Llm,
  type LlmChatRequest,
  type LlmChatResult,
  type LlmMessage,
  type LlmTool,
} from './llm.js';

export interface OpenAiLlmOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/v1` is added when the path has no version. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
  acceptsImages?: boolean;
  /** For tests: the fetch to use. */
  fetch?: typeof fetch;
}

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string().default('{}') }),
});

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
      }),
    )
    .min(1),
});

/** `https://host/v1` stays; `https://host` and `https://host/` become `https://host/v1`. */
export function completionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = `${/\/v\d+[a-z]*$/.test(path) ? path : `${path}/v1`}/chat/completions`;
  return url.toString();
}

function parseArguments(raw: string): unknown {
  try {
    return raw.trim() ? JSON.parse(raw) : {};
  } catch {
    return undefined;
  }
}

/** What goes back to the model for one call: the tool's result, or what went wrong, as JSON. */
async function runTool(tools: LlmTool[], name: string, args: unknown): Promise<string> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return JSON.stringify({ error: `There is no tool called ${name}.` });
  if (args === undefined) return JSON.stringify({ error: 'The arguments were not valid JSON.' });
  try {
    return JSON.stringify((await tool.run(args)) ?? null);
  } catch (err) {
    return JSON.stringify({ error: err instanceof Error ? err.message : String(err) });
  }
}

export function createOpenAiLlm(options: OpenAiLlmOptions): Llm {
  const url = completionsUrl(options.baseUrl);
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function complete(body: Record<string, unknown>, signal: AbortSignal) {
    let res: Response;
    try {
      res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (err) {
      if (signal.aborted) throw new LlmError('timeout', `no answer within ${options.timeoutMs} ms`);
      throw new LlmError('http', `request failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      if (signal.aborted) throw new LlmError('timeout', `no answer within ${options.timeoutMs} ms`);
      throw new LlmError(
        res.ok ? 'invalid_response' : 'http',
        `answer ${res.status} was not JSON`,
        res.status,
      );
    }
    if (!res.ok) {
      const detail = (json as { error?: { message?: unknown } } | null)?.error?.message;
      throw new LlmError(
        'http',
        `answer ${res.status}${typeof detail === 'string' ? `: ${detail.slice(0, 200)}` : ''}`,
        res.status,
      );
    }
    const parsed = completionSchema.safeParse(json);
    if (!parsed.success) throw new LlmError('invalid_response', 'the answer is not a chat completion');
    return parsed.data.choices[0]!.message;
  }

  return {
    model: options.model,
    acceptsImages: options.acceptsImages ?? true,

    async chat(request: LlmChatRequest): Promise<LlmChatResult> {
      const signal = AbortSignal.timeout(options.timeoutMs);
      const tools = request.tools ?? [];
      const maxRounds = Math.max(1, request.maxRounds ?? DEFAULT_MAX_ROUNDS);
      const messages: LlmMessage[] = [...request.messages];
      const toolCalls: LlmChatResult['toolCalls'] = [];
      for (let round = 1; round <= maxRounds; round++) {
        // The last round offers no tools, so the model has to answer with what it has.
        const offerTools = tools.length > 0 && round < maxRounds;
        const message = await complete(
          {
            model: options.model,
            messages,
            ...(offerTools
              ? {
                  tools: tools.map((t) => ({
                    type: 'function',
                    function: { name: t.name, description: t.description, parameters: t.parameters },
                  })),
                  tool_choice: 'auto',
                }
              : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
          },
          signal,
        );
        const calls = offerTools ? (message.tool_calls ?? []) : [];
        if (calls.length === 0) {
          const text = message.content?.trim() ?? '';
          if (!text) throw new LlmError('empty_answer', 'the model answered with no text');
          return { text, rounds: round, toolCalls };
        }
        messages.push({
          role: 'assistant',
          content: message.content ?? null,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: c.function })),
        });
        for (const call of calls) {
          const args = parseArguments(call.function.arguments);
          toolCalls.push({ name: call.function.name, arguments: args });
          const content = await runTool(tools, call.function.name, args);
          if (signal.aborted) throw new LlmError('timeout', `no answer within ${options.timeoutMs} ms`);
          messages.push({ role: 'tool', tool_call_id: call.id, content });
        }
      }
      // Unreachable: the last round offers no tools, so it either answered or threw.
      throw new LlmError('empty_answer', 'the model kept calling tools');
    },
  };
}
