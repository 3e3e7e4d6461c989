import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '../../../test/fake-llm.js';
import { LlmError, type LlmTool } from './llm.js';
import { completionsUrl, createOpenAiLlm } from './openai.llm.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.reply = () => ({ text: 'ok' });
});

const llm = (timeoutMs = 5_000) =>
  createOpenAiLlm({ baseUrl: server.baseUrl, apiKey: 'sk-test-123', model: 'test-model', timeoutMs });

const question = [
  { role: 'system' as const, content: 'You are a home sitter.' },
  { role: 'user' as const, content: 'Did anyone come today?' },
];

describe('the OpenAI-compatible adapter', () => {
  it('posts the conversation to /v1/chat/completions with the key and model and answers the text', async () => {
    server.reply = () => ({ text: '  Nobody came today.  ' });
    const result = await llm().chat({ messages: question, temperature: 0.2, maxTokens: 300 });
    expect(result).toEqual({ text: 'Nobody came today.', rounds: 1, toolCalls: [] });
    const [request] = server.received;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test-123');
    expect(request!.body).toMatchObject({
      model: 'test-model',
      messages: question,
      temperature: 0.2,
      max_tokens: 300,
    });
    expect(request!.body.tools).toBeUndefined();
  });

  it('runs a tool the model calls and sends its result back, then answers', async () => {
    const calls: unknown[] = [];
    const search: LlmTool = {
      name: 'search_activities',
      description: 'Search camera events',
      parameters: { type: 'object', properties: { time_phrase: { type: 'string' } } },
      run: async (args) => {
        calls.push(args);
        return { count: 2, activities: ['a1', 'a2'] };
      },
    };
    server.reply = (_req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'search_activities', arguments: { time_phrase: 'today' } }] }
        : { text: 'Two people came to the front door today.' };
    const result = await llm().chat({ messages: question, tools: [search] });

    expect(result).toEqual({
      text: 'Two people came to the front door today.',
      rounds: 2,
      toolCalls: [{ name: 'search_activities', arguments: { time_phrase: 'today' } }],
    });
    expect(calls).toEqual([{ time_phrase: 'today' }]);
    const [first, second] = server.received;
    expect(first!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'search_activities',
          description: 'Search camera events',
          parameters: search.parameters,
        },
      },
    ]);
    const [assistant, tool] = second!.body.messages.slice(2);
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [{ type: 'function', function: { name: 'search_activities' } }],
    });
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: (assistant!.tool_calls![0] as { id: string }).id,
      content: JSON.stringify({ count: 2, activities: ['a1', 'a2'] }),
    });
  });

  it('tells the model about unknown tools, bad arguments and failing tools instead of failing', async () => {
    const failing: LlmTool = {
      name: 'create_memory',
      description: 'Keep a note',
      parameters: { type: 'object' },
      run: async () => {
        throw new Error('Amnesia mode is on');
      },
    };
    server.reply = (_req, i) =>
      i === 0
        ? {
            toolCalls: [
              { name: 'delete_everything', arguments: {} },
              { name: 'create_memory', arguments: '{not json' },
              { name: 'create_memory', arguments: { text: 'x' } },
            ],
          }
        : { text: 'I could not keep that.' };
    const result = await llm().chat({ messages: question, tools: [failing] });
    expect(result.text).toBe('I could not keep that.');
    const toolMessages = server.received[1]!.body.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => JSON.parse(m.content as string) as unknown)).toEqual([
      { error: 'There is no tool called delete_everything.' },
      { error: 'The arguments were not valid JSON.' },
      { error: 'Amnesia mode is on' },
    ]);
  });

  it('offers tools for at most three rounds; the fourth call must answer', async () => {
    const tool: LlmTool = {
      name: 'search_activities',
      description: 'd',
      parameters: { type: 'object' },
      run: async () => [],
    };
    server.reply = (req) =>
      req.body.tools
        ? { toolCalls: [{ name: 'search_activities', arguments: {} }] }
        : { text: 'Here is what I found.' };
    const result = await llm().chat({ messages: question, tools: [tool] });
    expect(result.rounds).toBe(4);
    expect(result.toolCalls).toHaveLength(3);
    expect(server.received.map((r) => Boolean(r.body.tools))).toEqual([true, true, true, false]);
  });

  it('passes images through as content parts', async () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/jpeg;base64,AAAA' } };
    await llm().chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe' }, image] }] });
    expect(server.received[0]!.body.messages[0]!.content).toEqual([
      { type: 'text', text: 'Describe' },
      image,
    ]);
  });

  it('gives up with a timeout error when the server does not answer in time', async () => {
    server.reply = () => ({ hang: true });
    const error = await llm(300)
      .chat({ messages: question })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).reason).toBe('timeout');
  });

  it('fails with the status on an HTTP error, and on an answer that is no completion', async () => {
    server.reply = () => ({ status: 500, body: { error: { message: 'model overloaded' } } });
    const http = (await llm()
      .chat({ messages: question })
      .catch((e: unknown) => e)) as LlmError;
    expect(http).toMatchObject({ reason: 'http', status: 500 });
    expect(http.message).toContain('model overloaded');

    server.reply = () => ({ status: 200, body: { choices: [] } });
    await expect(llm().chat({ messages: question })).rejects.toMatchObject({ reason: 'invalid_response' });

    server.reply = () => ({ status: 200, body: 'not json' });
    await expect(llm().chat({ messages: question })).rejects.toMatchObject({ reason: 'invalid_response' });

    server.reply = () => ({ text: '   ' });
    await expect(llm().chat({ messages: question })).rejects.toMatchObject({ reason: 'empty_answer' });
  });

  it('fails with an HTTP error when nothing listens', async () => {
    const gone = createOpenAiLlm({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 5_000 });
    await expect(gone.chat({ messages: question })).rejects.toMatchObject({ reason: 'http' });
  });
});

describe('completionsUrl', () => {
  it.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['https://gateway.example/openai/v1', 'https://gateway.example/openai/v1/chat/completions'],
  ])('%s', (base, url) => {
    expect(completionsUrl(base)).toBe(url);
  });
});
