import { describe, expect, it } from 'vitest';
import { parseChatCorrection } from './chat-correction.js';

describe('reading a correction in a chat reply', () => {
  it.each([
    ["that's Rose", 'Rose', true, 'en'],
    ['That is Rose.', 'Rose', true, 'en'],
    ['this is Uncle Tom!', 'Uncle Tom', true, 'en'],
    ["Yes, it's Rose", 'Rose', true, 'en'],
    ['no, that’s Rose', 'Rose', true, 'en'],
    ['not Rose', 'Rose', false, 'en'],
    ["That's not Rose", 'Rose', false, 'en'],
    ["no, that isn't Rose 🙂", 'Rose', false, 'en'],
    ['it was not Anne-Marie', 'Anne-Marie', false, 'en'],
    ['das ist Rose', 'Rose', true, 'de'],
    ['Ja, das war Jürgen.', 'Jürgen', true, 'de'],
    ['nicht Rose', 'Rose', false, 'de'],
    ['Das ist nicht Rose!', 'Rose', false, 'de'],
    ['Nein, das war nicht Rose', 'Rose', false, 'de'],
  ])('%s → %s (%s, %s)', (text, name, isCorrect, language) => {
    expect(parseChatCorrection(text)).toEqual({ name, isCorrect, language, looksLikeName: true });
  });

  it.each([
    'Who was at the door today?',
    'thanks',
    'Rose',
    'that was the postman at the door earlier today when I was out shopping for groceries and more',
    '',
  ])('leaves %j alone', (text) => {
    expect(parseChatCorrection(text)).toBeUndefined();
  });

  it('tells a name from an ordinary word', () => {
    expect(parseChatCorrection("that's great")?.looksLikeName).toBe(false);
    expect(parseChatCorrection('das ist gut')?.looksLikeName).toBe(false);
  });
});
