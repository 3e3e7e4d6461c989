// A stand-in for vision.worker.ts that speaks its protocol without models, for the engine's queue, crash,
// restart and idle tests. It runs as the real one does, as a child process. What it does depends on the decoded
// image's width: 11 exits, 12 never answers, 13 fails the call; anything else answers after a moment with one
// object covering the whole image. Every start is appended to the file in FAKE_VISION_STARTS, and every
// answer names the process that gave it.
import { appendFileSync } from 'node:fs';

const post = (reply) => process.connected && process.send(reply);
if (process.env.FAKE_VISION_STARTS) appendFileSync(process.env.FAKE_VISION_STARTS, `${process.pid}\n`);
process.on('disconnect', () => process.exit(0));
if (process.env.FAKE_VISION_FATAL === '1') post({ type: 'fatal', error: 'no models here' });

process.on('message', (request) => {
  const { width, height } = request.image;
  if (!(request.image.data instanceof Uint8Array) || request.image.data.length !== width * height * 3) {
    post({ type: 'failed', id: request.id, error: 'the pixels did not arrive as they were sent' });
    return;
  }
  if (width === 11) process.exit(3);
  if (width === 12) return;
  if (width === 13) {
    post({ type: 'failed', id: request.id, error: 'could not look' });
    return;
  }
  setTimeout(() => {
    const result =
      request.type === 'embed'
        ? [{ box: [0, 0, width, height], score: 0.9, descriptor: new Array(128).fill(process.pid) }]
        : {
            objects: [
              { kind: 'person', label: `process-${process.pid}`, score: 0.9, box: [0, 0, width, height] },
            ],
            faces: [],
          };
    post({ type: 'result', id: request.id, result });
  }, 30);
});
