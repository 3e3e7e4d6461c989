import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { addCameraRequestSchema, cameraSettingsPatchSchema, updateCameraRequestSchema } from './cameras.js';
import { sendMessageRequestSchema } from './chat.js';
import { clientDate, emailSchema, multiLineText, singleLineText } from './common.js';
import { memoryBodySchema, memoryExpirationSchema } from './memories.js';
import { listActivitiesQuerySchema } from './activities.js';
import { createUserRequestSchema } from './users.js';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('text fields refuse control characters', () => {
  it('refuses every C0 control character and DEL on one line, naming the field', () => {
    const name = singleLineText('name');
    for (const code of [0, 1, 9, 10, 13, 27, 31, 127]) {
      expect(messages(name.safeParse(`a${String.fromCharCode(code)}b`))).toEqual([
        'name must not contain control characters',
      ]);
    }
    expect(name.safeParse('Rose Ü 🙂').success).toBe(true);
  });

  it('keeps tab, newline and carriage return in multi-line text, and refuses the rest', () => {
    const notes = multiLineText('notes');
    expect(notes.safeParse('first line\r\n\tsecond').success).toBe(true);
    expect(messages(notes.safeParse('bell\u0007'))).toEqual(['notes must not contain control characters']);
    expect(messages(notes.safeParse('nul\u0000'))).toEqual(['notes must not contain control characters']);
  });

  it('checks after trimming, so a pasted trailing newline in a name is still trimmed away', () => {
    expect(createUserRequestSchema.parse({ first_name: 'Rose\n' })).toMatchObject({ first_name: 'Rose' });
  });

  it('leaves the fields’ own messages as they were', () => {
    expect(messages(emailSchema.safeParse('not an email'))).toEqual(['Please enter a valid email address']);
    expect(messages(addCameraRequestSchema.safeParse({ name: 'x'.repeat(200) }))[0]).toMatch(
      /Camera names are at most/,
    );
  });

  it('applies to request bodies across the contract', () => {
    expect(messages(addCameraRequestSchema.safeParse({ name: 'Front\u0000door' }))).toEqual([
      'name must not contain control characters',
    ]);
    expect(cameraSettingsPatchSchema.safeParse({ notes: 'line one\nline two' }).success).toBe(true);
    expect(messages(cameraSettingsPatchSchema.safeParse({ username: 'ad\tmin' }))).toEqual([
      'username must not contain control characters',
    ]);
    expect(sendMessageRequestSchema.safeParse({ text: 'Who was at\nthe door?' }).success).toBe(true);
    expect(messages(sendMessageRequestSchema.safeParse({ text: 'esc\u001b[2J' }))).toEqual([
      'text must not contain control characters',
    ]);
    expect(messages(memoryBodySchema.safeParse({ name: 'Ro\u0008se' }))).toEqual([
      'name must not contain control characters',
    ]);
  });
});

describe('dates a client sends', () => {
  const window = 'must be between 2000-01-01 and 2099-12-31';

  it('refuses instants before 2000 or from 2100 on, naming the field, and leaves bad formats to the format check', () => {
    const at = clientDate('at', z.iso.datetime({ offset: true, message: 'at is not a date-time' }));
    for (const v of [
      '0001-01-01T00:00:00Z',
      '0099-01-01T00:00:00Z',
      '1999-12-31T23:59:59.999Z',
      '2100-01-01T00:00:00Z',
    ])
      expect(messages(at.safeParse(v)), v).toEqual([`at ${window}`]);
    for (const v of ['2000-01-01T00:00:00Z', '2099-12-31T23:59:59Z', '2025-06-01T08:00:00+02:00'])
      expect(at.safeParse(v).success, v).toBe(true);
    expect(messages(at.safeParse('yesterday'))).toEqual(['at is not a date-time']);
  });

  it('holds for every date field of the contract a client sends', () => {
    const old = '0001-01-01T00:00:00Z';
    expect(messages(sendMessageRequestSchema.safeParse({ text: 'hi', date_time_utc: old }))).toEqual([
      `date_time_utc ${window}`,
    ]);
    expect(
      messages(updateCameraRequestSchema.safeParse({ name: 'Porch', removed_date_time_utc: old })),
    ).toEqual([`removed_date_time_utc ${window}`]);
    expect(messages(listActivitiesQuerySchema.safeParse({ from: old }))).toContain(`from ${window}`);
    expect(
      messages(memoryExpirationSchema.safeParse({ date: '0099-12-31', hour: 1, minute: 0, period: 'AM' })),
    ).toEqual([`date ${window}`]);
  });
});
