// What the end-to-end suite (e2e.mjs, links.mjs, view.mjs) and the browser benchmark (bench.mjs)
// share: the repository root, playwright-core from .tools/npm, `--name value` arguments, a
// headless Debian Chromium started with the project's flags, and the function list's rows
// compared with a JSON report's.

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

/** The changed functions of a `specdiff diff --format json` report, as the list shows them; of
 *  a reduced link's, those whose specialization changed (code edits alone are left out). */
export function expectedRows(report, reduced) {
  const share = (s) => (s.sites > 0 ? `${s.specialized}/${s.sites}` : '–');
  const skip = reduced ? ['unchanged', 'added', 'removed'] : ['unchanged'];
  return report.functions
    .filter((f) => Object.entries(f.counts).some(([k, n]) => !skip.includes(k) && n > 0))
    .map((f) => ({
      key: `${f.module}:${f.qualname}`,
      badges: Object.fromEntries(Object.entries(f.counts).filter(([k, n]) => k !== 'unchanged' && n > 0).sort()),
      share: `${share(f.specialized_before)} → ${share(f.specialized_after)}`,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** The changed rows of the function list (the list is virtual: the demo's all fit on screen). */
export async function shownRows(page) {
  await page.click('[data-tab=functions]');
  await page.waitForSelector('.frow');
  const rows = await page.$$eval('.frow:not(.unchanged)', (els) => els.map((el) => ({
    key: el.dataset.key,
    badges: Object.fromEntries([...el.querySelectorAll('.fbadges .badge')].map((b) => [b.dataset.class.replace(/[- ]/g, '_'), Number(b.textContent.replace(/\D/g, ''))]).sort()),
    share: el.querySelector('.fshare').textContent,
  })));
  return rows.sort((a, b) => a.key.localeCompare(b.key));
}
