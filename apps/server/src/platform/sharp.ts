import type sharpDefault from 'sharp';

export type SharpModule = typeof sharpDefault;
let sharpModule: Promise<SharpModule> | undefined;

/**
 * sharp (libvips), loaded with the first image so a server that never handles one does not carry it, and set
 * up once for every caller (uploads, thumbnails, the vision engine's decoding): no operation cache (it keeps
 * decoded images around for a repeat that never comes) and one libvips thread per image (uploads are few, and
 * each thread holds its own tiles: memory matters more than speed here).
 */
export function loadSharp(): Promise<SharpModule> {
  sharpModule ??= import('sharp').then((m) => {
    const sharp = m.default;
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}
