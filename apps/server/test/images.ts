import sharp from 'sharp';

/** A real photo-like JPEG of about `width`×`height`, with an EXIF GPS location (to prove it is stripped). */
export async function jpegWithLocation(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="orange"/></svg>`,
        ),
      },
    ])
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Homesitter' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 31/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '13/1 24/1 0/1',
      },
    })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export async function webp(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ff00ff' } })
    .webp()
    .toBuffer();
}

/** A JPEG of random noise (incompressible) of at least `bytes`: for size limits and upload load. */
export async function noisyJpeg(bytes: number): Promise<Buffer> {
  let side = Math.ceil(Math.sqrt(bytes / 1.2));
  for (;;) {
    const raw = Buffer.alloc(side * side * 3);
    for (let i = 0; i < raw.length; i += 1) raw[i] = (Math.random() * 256) | 0;
    const out = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    if (out.length >= bytes) return out;
    side = Math.ceil(side * 1.2);
  }
}

/** A multipart/form-data body with one file field. */
export function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----hs${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
