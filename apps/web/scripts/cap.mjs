#!/usr/bin/env node
// Runs the Capacitor CLI (`node scripts/cap.mjs sync`, `… add android`). Its `capacitor` binary refuses
// Node < 22 before it starts, while this repository runs on Node 20 (the machines' version, README); the
// commands we use (add, copy, sync, update, config, ls) work on 20, so we call the CLI's entry directly.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require('@capacitor/cli/dist/index.js');
cli.run();
