import type { FastifyInstance } from 'fastify';
import { HELPER_ORIGIN } from '@homesitter/contract';
import helmet from 'helmet';

/**
 * Security headers from helmet, built once. (@fastify/helmet rebuilds helmet's middleware on every request,
 * which cost more than a profile lookup.) The CSP fits the web app: our own scripts only, inline styles for
 * Radix, media and images from blob: and data:, WebSocket to our own origin, and the desktop helper's local API
 * on 127.0.0.1:17429 (camera discovery and the camera test). `mediaOrigins` are where else
 * media come from (an S3 bucket's presigned URLs): images, video and the HLS segments hls.js fetches.
 */
export function installSecurityHeaders(app: FastifyInstance, mediaOrigins: readonly string[] = []): void {
  const apply = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        connectSrc: ["'self'", 'ws:', 'wss:', HELPER_ORIGIN, ...mediaOrigins],
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
