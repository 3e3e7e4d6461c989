// A stand-in for vision.worker.ts that speaks its protocol without models, for the engine's queue, crash and
// restart tests. What it does depends on the decoded image's width: 11 exits, 12 never answers, 13 fails
// the call; anything else answers after a moment with one object covering the whole image. Every start is
// appended to the file in FAKE_VISION_STARTS, and every answer names the thread that gave it.
import { appendFileSync } from 'node:fs';
import { parentPort, threadId } from 'node:worker_threads';

if (process.env.FAKE_VISION_STARTS) appendFileSync(process.env.FAKE_VISION_STARTS, `${threadId}\n`);
if (process.env.FAKE_VISION_FATAL === '1') parentPort.postMessage({ type: 'fatal', error: 'no models here' });

parentPort.on('message', (request) => {
  const { width, height } = request.image;
  if (width === 11) process.exit(3);
  if (width === 12) return;
  if (width === 13) {
    parentPort.postMessage({ type: 'failed', id: request.id, error: 'could not look' });
    return;
  }
  setTimeout(() => {
    const result =
      request.type === 'embed'
        ? [{ box: [0, 0, width, height], score: 0.9, descriptor: new Array(128).fill(threadId) }]
        : {
            objects: [
              { kind: 'person', label: `thread-${threadId}`, score: 0.9, box: [0, 0, width, height] },
            ],
            faces: [],
          };
    parentPort.postMessage({ type: 'result', id: request.id, result });
  }, 30);
});
