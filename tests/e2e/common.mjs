// What the end-to-end suite (e2e.mjs) and the browser benchmark (bench.mjs) share: the
// repository root, playwright-core from .tools/npm, `--name value` arguments, and a headless
// Debian Chromium started with the project's flags.

import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { chromium } = require(path.join(root, '.tools/npm/node_modules/playwright-core'));

/** `--name value` pairs of the command line, as an object. */
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(argv.reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
}

/** Headless Chromium with the flags every run uses, plus `extra`. */
export function launchChromium(extra = []) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extra],
  });
}
