import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers from helmet, built once. (@fastify/helmet rebuilds helmet's middleware on every request,
 * which cost more than a profile lookup.) The CSP fits the web app: our own scripts only, inline styles for
 * Radix, media and images from blob: and data:, WebSocket to our own origin. `mediaOrigins` are where else
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
        connectSrc: ["'self'", 'ws:', 'wss:', ...mediaOrigins],
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
