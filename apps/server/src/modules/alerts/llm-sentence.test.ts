import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '../../../test/fake-llm.js';
import { createOpenAiLlm } from '../../adapters/llm/openai.llm.js';
import { createLogger } from '../../platform/logger.js';
import type { ActivityFacts } from '../language/language.module.js';
import { createLlmDescriber, type RicherDescriptionInput } from './llm-sentence.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
});

const log = createLogger('silent');
const facts: ActivityFacts = {
  cameraName: 'Front Door',
  occurredAt: new Date('2025-06-10T13:12:00Z'),
  timezone: 'Europe/Berlin',
  objects: [{ kind: 'person', label: 'person' }],
  recognised: [{ category: 'people', name: 'Rose' }],
  mediaKind: 'image',
};
const input: RicherDescriptionInput = {
  facts,
  localizedLanguage: 'de',
  imageUrl: 'data:image/jpeg;base64,AAAA',
  cameraNotes: 'Faces the street',
  memoryNotes: [{ name: 'Rose', notes: 'My sister' }],
  knownNames: ['Rose', 'Otto'],
};
const describer = (acceptsImages = true, timeoutMs = 5_000) =>
  createLlmDescriber({
    llm: createOpenAiLlm({ baseUrl: server.baseUrl, model: 'vision-test', timeoutMs, acceptsImages }),
    log,
  });

describe('LLM descriptions', () => {
  it('sends the facts, notes and picture and answers both sentences', async () => {
    server.reply = () => ({
      text: '```json\n{"en": "Your sister Rose came to the Front Door at 3:12 PM.", "de": "Deine Schwester Rose kam um 15:12 zur Haustür."}\n```',
    });
    expect(await describer().describe(input)).toEqual({
      description: 'Your sister Rose came to the Front Door at 3:12 PM.',
      descriptionLocalized: 'Deine Schwester Rose kam um 15:12 zur Haustür.',
    });
    const [text, image] = server.received[0]!.body.messages[1]!.content as { type: string; text?: string }[];
    expect(text!.text).toContain('Recognised: Rose (people)');
    expect(text!.text).toContain('Camera notes: Faces the street');
    expect(text!.text).toContain('About Rose: My sister');
    expect(text!.text).toContain('Draft: Rose walked up to the Front Door at 3:12 PM.');
    expect(image).toEqual({ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } });
  });

  it('sends no picture to a text-only model', async () => {
    server.reply = () => ({ text: '{"en": "Rose came by.", "de": "Rose kam vorbei."}' });
    await describer(false).describe(input);
    expect(server.received[0]!.body.messages[1]!.content).toHaveLength(1);
  });

  it('keeps the composed sentence when the model names someone not recognised', async () => {
    server.reply = () => ({ text: '{"en": "Rose and Otto came by.", "de": "Rose und Otto kamen vorbei."}' });
    expect(await describer().describe(input)).toBeUndefined();
  });

  it('keeps the composed sentence on a malformed answer, a timeout or no model', async () => {
    server.reply = () => ({ text: 'Rose came by.' });
    expect(await describer().describe(input)).toBeUndefined();
    server.reply = () => ({ text: '{"en": "Rose came by."}' });
    expect(await describer().describe(input)).toBeUndefined();
    server.reply = () => ({ hang: true });
    expect(await describer(true, 300).describe(input)).toBeUndefined();
    expect(await createLlmDescriber({ log }).describe(input)).toBeUndefined();
    expect(createLlmDescriber({ log }).enabled).toBe(false);
  });
});
