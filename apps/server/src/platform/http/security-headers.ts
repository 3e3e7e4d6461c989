import type { FastifyInstance } from 'fastify';
import { HELPER_ORIGIN } from '@homesitter/contract';
import helmet from 'helmet';

/** The WebSocket form of a URL's origin: `wss://app.example.com` for `https://app.example.com/…`. */
export function webSocketOrigin(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}`;
}

/** Stripe.js, its card-field frames (and 3-D Secure through hooks.stripe.com) and its API. */
const STRIPE_ORIGINS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/**
 * Security headers from helmet, built once. (@fastify/helmet rebuilds helmet's middleware on every request,
 * which cost more than a profile lookup.) The CSP fits the web app: our own scripts only, inline styles for
 * Radix, media and images from blob: and data:, and connections only to our own origin, the desktop helper's
 * local API on 127.0.0.1:17429 (camera discovery and the camera test) and `mediaOrigins`. WebSockets (the
 * realtime hub, the live view) go to `publicUrl`'s origin, named in its ws:/wss: form as well: 'self' covers
 * a same-origin socket in CSP Level 3, which older Safari did not follow. `mediaOrigins` are where else
 * media come from (an S3 bucket's presigned URLs): images, video and the HLS segments hls.js fetches.
 * With `payments` on (Stripe configured), the in-app payment dialog may load Stripe.js, frame its card
 * fields and 3-D Secure pages, and call its API: the origins Stripe documents for its CSP, and no more.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl: string; mediaOrigins?: readonly string[]; payments?: boolean },
): void {
  const mediaOrigins = options.mediaOrigins ?? [];
  const stripe = options.payments ? STRIPE_ORIGINS : { script: [], frame: [], connect: [] };
  const apply = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripe.script],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        connectSrc: [
          "'self'",
          webSocketOrigin(options.publicUrl),
          HELPER_ORIGIN,
          ...mediaOrigins,
          ...stripe.connect,
        ],
        frameSrc: ["'self'", ...stripe.frame],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (req, reply, done) => {
    apply(req.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
}
