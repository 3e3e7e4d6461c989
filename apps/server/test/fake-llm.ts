import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local server on 127.0.0.1 that speaks the OpenAI chat-completions API (`POST /v1/chat/completions`), as
// OpenAI, Ollama, vLLM and llama.cpp do. A test scripts its replies and reads back what it was sent.

/** One request as the server received it. */
export interface ReceivedCompletion {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
    tool_choice?: unknown;
    [key: string]: unknown;
  };
}

/** What to answer: a text, tool calls, a raw status and body, or nothing until the client gives up. */
export type FakeReply =
  | { text: string }
  | { toolCalls: { name: string; arguments: unknown }[] }
  | { status: number; body: unknown }
  | { hang: true };

export interface FakeLlmServer {
  /** Base URL with `/v1`, as `LLM_BASE_URL` takes it. */
  baseUrl: string;
  received: ReceivedCompletion[];
  /** Decides each reply; the default answers "ok". */
  reply: (request: ReceivedCompletion, index: number) => FakeReply;
  close(): Promise<void>;
}

let callSeq = 0;

function completion(reply: { text: string } | { toolCalls: { name: string; arguments: unknown }[] }) {
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map((c) => ({
            id: `call_${++callSeq}`,
            type: 'function',
            function: {
              name: c.name,
              arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
            },
          })),
        };
  return {
    id: `chatcmpl-${callSeq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'fake',
    choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
  };
}

export async function startFakeLlm(): Promise<FakeLlmServer> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeLlmServer = {
    baseUrl: '',
    received: [],
    reply: () => ({ text: 'ok' }),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const request: ReceivedCompletion = {
        path: req.url,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedCompletion['body'],
      };
      fake.received.push(request);
      const reply = fake.reply(request, fake.received.length - 1);
      if ('hang' in reply) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const [status, body] = 'status' in reply ? [reply.status, reply.body] : [200, completion(reply)];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
