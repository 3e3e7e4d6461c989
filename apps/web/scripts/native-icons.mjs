/**
 * Draws the app's icons and splash screens for the native projects from the Homesitter mark (the house of
 * public/favicon.svg), at the size of every image the Capacitor CLI generated: `npm run mobile:icons -w
 * apps/web` after `cap add`, or after the mark changes. The results are committed; nothing runs at build.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BRAND = '#0ea5e9';
const INK = '#0b1120';
/** The house of the favicon, drawn in a 32-unit box (it spans 8..24 × 9..25). */
const HOUSE = 'M8 16.5 16 9l8 7.5V24a1 1 0 0 1-1 1h-4.5v-5h-5v5H9a1 1 0 0 1-1-1z';

/** The house centred in a `width` × `height` image, `scale` of the shorter side, over `background`. */
function house({ width, height, scale, color, background, shape }) {
  const side = Math.min(width, height) * scale;
  const unit = side / 16;
  const x = (width - side) / 2 - 8 * unit;
  const y = (height - side) / 2 - 9 * unit;
  const backdrop =
    shape === 'circle'
      ? `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 2}" fill="${background}"/>`
      : shape === 'rounded'
        ? `<rect width="${width}" height="${height}" rx="${width / 4}" fill="${background}"/>`
        : background
          ? `<rect width="${width}" height="${height}" fill="${background}"/>`
          : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${backdrop}` +
      `<path transform="translate(${x} ${y}) scale(${unit})" d="${HOUSE}" fill="${color}"/></svg>`,
  );
}

/** What each generated image becomes, by its file name. */
function drawingFor(file, width, height) {
  const name = path.basename(file);
  if (name === 'ic_launcher_foreground.png')
    // Adaptive icon: 108 dp, of which the middle 72 dp always show; the background is a colour resource.
    return house({ width, height, scale: 0.42, color: INK });
  if (name === 'ic_launcher_round.png')
    return house({ width, height, scale: 0.56, color: INK, background: BRAND, shape: 'circle' });
  if (name === 'ic_launcher.png')
    return house({ width, height, scale: 0.56, color: INK, background: BRAND, shape: 'rounded' });
  if (name.startsWith('AppIcon'))
    // iOS masks the corners itself and refuses transparency.
    return house({ width, height, scale: 0.56, color: INK, background: BRAND });
  if (name.startsWith('splash')) return house({ width, height, scale: 0.22, color: BRAND, background: INK });
  return undefined;
}

function pngsUnder(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return pngsUnder(full);
    return full.endsWith('.png') ? [full] : [];
  });
}

const images = [
  ...pngsUnder(path.join(root, 'android/app/src/main/res')),
  ...pngsUnder(path.join(root, 'ios/App/App/Assets.xcassets')),
];
for (const file of images) {
  const { width, height } = await sharp(readFileSync(file)).metadata();
  const drawing = drawingFor(file, width, height);
  if (!drawing) continue;
  const png = sharp(drawing).png({ compressionLevel: 9 });
  writeFileSync(file, await (file.includes('AppIcon') ? png.flatten({ background: BRAND }) : png).toBuffer());
  console.log(`${path.relative(root, file)} ${width}×${height}`);
}

const background = path.join(root, 'android/app/src/main/res/values/ic_launcher_background.xml');
writeFileSync(
  background,
  readFileSync(background, 'utf8').replace(/(<color name="ic_launcher_background">)[^<]*/, `$1${BRAND}`),
);
