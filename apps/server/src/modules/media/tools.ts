import { spawn } from 'node:child_process';
import type { Logger } from '../../platform/logger.js';
import { startFailure, type MediaToolMissingError } from './ffmpeg.js';
import { resolveMediaTool, type MediaToolName, type MediaToolPath } from './tool-paths.js';

/** Whether the server's ffmpeg and ffprobe (tool-paths.ts) run, which versions they are, and what /readyz says. */
export interface MediaToolStatus extends MediaToolPath {
  /** The version the binary reports ("4.1", "N-66595-gc2b38619c0-static"…), or null when it did not run. */
  version: string | null;
  /** Why it cannot run, when it cannot. */
  error: string | null;
}

export type MediaToolsReport = Record<MediaToolName, MediaToolStatus>;

/** Runs `<tool> -version` and reads the version from its first line ("ffmpeg version 4.1 Copyright…"). */
export function checkMediaTool(tool: MediaToolPath, timeoutMs = 15_000): Promise<MediaToolStatus> {
  return new Promise((resolve) => {
    const done = (version: string | null, error: string | null) => resolve({ ...tool, version, error });
    const child = spawn(tool.path, ['-version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (out.length < 4_096) out += chunk;
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done(null, startFailure(tool.path, err).message);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const version = /^\S+ version (\S+)/.exec(out)?.[1] ?? null;
      if (code === 0 && version) done(version, null);
      else done(null, signal ? `${tool.path} -version did not answer` : `${tool.path} -version failed`);
    });
  });
}

export interface MediaToolsOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  log: Logger;
}

/**
 * The server's media tools: their paths, one check of both (logged once with their versions), and what
 * `/readyz` reports. A tool found missing later (a failed spawn during processing) is reported the same
 * way, and its warning is logged once, not once per upload.
 */
export function createMediaTools(options: MediaToolsOptions) {
  const { log } = options;
  const tools: Record<MediaToolName, MediaToolPath> = {
    ffmpeg: resolveMediaTool('ffmpeg', options.ffmpegPath),
    ffprobe: resolveMediaTool('ffprobe', options.ffprobePath),
  };
  const missing = new Map<MediaToolName, string>();
  let checked: Promise<MediaToolsReport> | undefined;

  function warnMissing(name: MediaToolName, error: string): void {
    if (missing.has(name)) return;
    missing.set(name, error);
    log.warn(
      { tool: name, path: tools[name].path, error },
      `${name} cannot run: camera clips are kept and playable as the camera sent them, but get no poster, ` +
        'no HLS and no frame analysis. Run `npm ci` (it installs @ffmpeg-installer/ffmpeg and ' +
        '@ffprobe-installer/ffprobe) or set FFMPEG_PATH and FFPROBE_PATH to working binaries, then restart.',
    );
  }

  async function runCheck(): Promise<MediaToolsReport> {
    const [ffmpeg, ffprobe] = await Promise.all([
      checkMediaTool(tools.ffmpeg),
      checkMediaTool(tools.ffprobe),
    ]);
    for (const status of [ffmpeg, ffprobe]) {
      const name = status === ffmpeg ? 'ffmpeg' : 'ffprobe';
      if (status.error) warnMissing(name, status.error);
    }
    if (!ffmpeg.error && !ffprobe.error)
      log.info(
        {
          ffmpeg: { path: ffmpeg.path, source: ffmpeg.source, version: ffmpeg.version },
          ffprobe: { path: ffprobe.path, source: ffprobe.source, version: ffprobe.version },
        },
        'media tools ready',
      );
    return { ffmpeg, ffprobe };
  }

  /** Checks both tools once (later calls answer the same result). */
  function check(): Promise<MediaToolsReport> {
    checked ??= runCheck();
    return checked;
  }

  /** A spawn failed during processing: the tool is reported missing from now on (warned once). */
  function reportMissing(err: MediaToolMissingError): void {
    const name: MediaToolName = err.tool === tools.ffprobe.path ? 'ffprobe' : 'ffmpeg';
    warnMissing(name, err.message);
  }

  /** The check's result with whatever processing has found missing since. */
  async function report(): Promise<MediaToolsReport> {
    const checkedReport = await check();
    const withRuntime = (name: MediaToolName): MediaToolStatus => {
      const error = missing.get(name);
      return error && !checkedReport[name].error ? { ...checkedReport[name], error } : checkedReport[name];
    };
    return { ffmpeg: withRuntime('ffmpeg'), ffprobe: withRuntime('ffprobe') };
  }

  return {
    ffmpegPath: tools.ffmpeg.path,
    ffprobePath: tools.ffprobe.path,
    check,
    reportMissing,
    report,
  };
}
export type MediaTools = ReturnType<typeof createMediaTools>;
