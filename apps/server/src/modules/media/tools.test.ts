import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../platform/logger.js';
import { MediaToolMissingError } from './ffmpeg.js';
import { resolveMediaTool } from './tool-paths.js';
import { checkMediaTool, createMediaTools } from './tools.js';

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string; tool?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream) as unknown as Logger, lines };
}
const WARN = 40;

describe('the media tools', () => {
  it('are the builds the npm packages ship, unless FFMPEG_PATH / FFPROBE_PATH say otherwise', () => {
    for (const name of ['ffmpeg', 'ffprobe'] as const) {
      const packaged = resolveMediaTool(name);
      expect(packaged.source).toBe('npm');
      expect(packaged.path).toContain(`node_modules/@${name}-installer/`);
      expect(existsSync(packaged.path)).toBe(true);
      expect(resolveMediaTool(name, '/opt/bin/' + name)).toEqual({ path: '/opt/bin/' + name, source: 'env' });
    }
  });

  it('run and tell their versions', async () => {
    const ffmpeg = await checkMediaTool(resolveMediaTool('ffmpeg'));
    const ffprobe = await checkMediaTool(resolveMediaTool('ffprobe'));
    expect(ffmpeg).toMatchObject({ error: null, version: expect.stringMatching(/\S/) });
    expect(ffprobe).toMatchObject({ error: null, version: expect.stringMatching(/\S/) });
  });

  it('log their versions once at the check', async () => {
    const { log, lines } = capturingLogger();
    const tools = createMediaTools({ log });
    const report = await tools.check();
    await tools.check();
    expect(report.ffmpeg.error).toBeNull();
    expect(lines.filter((l) => l.msg === 'media tools ready')).toHaveLength(1);
    expect(lines.filter((l) => l.level >= WARN)).toEqual([]);
  });

  it('say once, not per clip, what to do when one is missing', async () => {
    const { log, lines } = capturingLogger();
    const tools = createMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', log });
    const report = await tools.check();
    expect(report.ffmpeg).toMatchObject({ version: null, error: expect.stringContaining('was not found') });
    expect(report.ffprobe.error).toBeNull();
    for (let i = 0; i < 3; i++)
      tools.reportMissing(new MediaToolMissingError('/nonexistent/ffmpeg', 'was not found'));
    const warnings = lines.filter((l) => l.level >= WARN);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ tool: 'ffmpeg' });
    expect(warnings[0]!.msg).toContain('npm ci');
    expect(warnings[0]!.msg).toContain('FFMPEG_PATH');
  });

  it('report a tool that stops running after the check', async () => {
    const { log, lines } = capturingLogger();
    const tools = createMediaTools({ log });
    await tools.check();
    tools.reportMissing(new MediaToolMissingError(tools.ffprobePath, 'is not executable'));
    tools.reportMissing(new MediaToolMissingError(tools.ffprobePath, 'is not executable'));
    const report = await tools.report();
    expect(report.ffprobe.error).toContain('is not executable');
    expect(report.ffmpeg.error).toBeNull();
    expect(lines.filter((l) => l.level >= WARN)).toHaveLength(1);
  });
});
