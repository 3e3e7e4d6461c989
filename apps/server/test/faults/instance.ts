// One server process as `npm start` runs it (src/main.ts), but with a stand-in vision engine that sees a
// person in every image, so every upload becomes an alert. For the fault tests that kill an instance.
import { createServer } from '../../src/app.js';
import type { VisionEngine } from '../../src/adapters/vision/vision.js';
import { createAdapters } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/platform/config.js';

const seesPerson: VisionEngine = {
  kind: 'local',
  analyse: async () => ({
    width: 640,
    height: 360,
    objects: [{ kind: 'person', label: 'person', score: 0.9, box: [10, 10, 100, 300] }],
    faces: [],
  }),
  embedFaces: async () => [],
  close: async () => undefined,
};

const config = loadConfig();
const deps = await createAdapters(config, { vision: seesPerson });
const { app, modules } = await createServer(deps);
await app.listen({ port: config.PORT, host: config.HOST });
const ingest = await modules.ingest.startServers();
process.on('SIGTERM', () => {
  void ingest
    .close()
    .then(() => app.close())
    .then(() => deps.database.close())
    .finally(() => process.exit(0));
});
// The test reads this line to know the instance answers.
console.log(`instance ready ${ingest.ftpPort}`);
