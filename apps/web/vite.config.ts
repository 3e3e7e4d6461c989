/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { LANGUAGES, SUPPORTED_LANGUAGES } from '../../packages/contract/src/languages';

const contractDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../packages/contract/src');
const apiTarget = process.env.API_URL ?? 'http://localhost:8080';

/**
 * The contract only declares things (zod schemas, constants, messages). Marking its top-level calls pure lets
 * the bundler drop the schemas the browser never uses, and zod with them, while constants, messages and
 * helpers still come from the one source of truth.
 */
function contractDeclarationsArePure(): Plugin {
  return {
    name: 'homesitter:contract-pure-declarations',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(contractDir)) return null;
      return code.replace(
        /^((?:export )?const \w+(?:: [^=\n]+)? = )(?=z\b|[\w.]+\s*[(<])/gm,
        '$1/* @__PURE__ */ ',
      );
    },
  };
}

/**
 * The contract's language list as plain data. Its module also declares a zod enum, which would pull zod into
 * the bundle, so the list is read here (at build time) from the same source.
 */
function contractLanguages(): Plugin {
  const id = 'virtual:homesitter-languages';
  return {
    name: 'homesitter:contract-languages',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load: (loaded) =>
      loaded === `\0${id}`
        ? `export const LANGUAGES = ${JSON.stringify(LANGUAGES)};\nexport const SUPPORTED_LANGUAGES = ${JSON.stringify(SUPPORTED_LANGUAGES)};`
        : null,
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), contractDeclarationsArePure(), contractLanguages()],
  resolve: {
    // Tests use the whole contract (zod included) to check the web app against it.
    alias: process.env.VITEST
      ? []
      : [
          {
            find: /^@homesitter\/contract$/,
            replacement: fileURLToPath(new URL('./src/shared/lib/contract.runtime.ts', import.meta.url)),
          },
        ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/healthz': apiTarget,
      '/.well-known': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
  },
});
