// Largest Contentful Paint of /auth on localhost, measured in Chromium (chromium.mjs; 5 cold loads; median and
// worst). Serves the built app (`dist`) with history fallback; the one API call /auth makes is answered
// locally. Fails when the median is above 1.0 s.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, describeChromium } from './chromium.mjs';

const BUDGET_MS = 1_000;
const RUNS = 5;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname.startsWith('/api/')) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { enabled: true } }));
    return;
  }
  let file = path.join(dist, url.pathname);
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory())
    file = path.join(dist, 'index.html');
  const body = gzipSync(readFileSync(file));
  const immutable = file.includes(`${path.sep}assets${path.sep}`);
  res.writeHead(200, {
    'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
    'Content-Encoding': 'gzip',
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

const browser = await chromium.launch(await chromiumLaunchOptions());
console.log(`Measured in ${describeChromium(browser)}`);
const samples = [];
try {
  for (let i = 0; i < RUNS; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/auth`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Create account', exact: true }).waitFor();
    const lcp = await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1].startTime);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    samples.push(lcp);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)];
console.log(
  `LCP of /auth (localhost, ${RUNS} cold loads): median ${Math.round(median)} ms, worst ${Math.round(samples.at(-1))} ms (budget ${BUDGET_MS} ms)`,
);
if (median > BUDGET_MS) {
  console.error('LCP over budget');
  process.exit(1);
}
