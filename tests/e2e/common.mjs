// What the end-to-end suite (e2e.mjs, links.mjs, view.mjs) and the browser benchmarks (bench.mjs,
// big_pair.mjs) share: the repository root, playwright-core from .tools/npm, `--name value`
// arguments, a headless Debian Chromium started with the project's flags (and measured: its
// processes' memory), and the function list's rows compared with a JSON report's.

import fs from 'node:fs';
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

/** Headless Chromium whose processes can be measured: the browser and the pid of its main
 *  process (found in /proc by a marker flag; `undefined` if not found). */
export async function launchMeasuredChromium(extra = []) {
  const marker = `--specdiff-measured=${process.pid}`;
  const browser = await launchChromium([...extra, marker]);
  const pid = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).find((p) => {
    try {
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      return cmd.includes(marker) && !cmd.some((a) => a.startsWith('--type='));
    } catch {
      return false;
    }
  });
  return { browser, pid };
}

/** Resident memory (MB) of process `pid` and all its descendants (the browser's renderer holds
 *  the page and its worker). */
export function treeRss(pid) {
  const children = new Map();
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(p));
    } catch {}
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      const m = fs.readFileSync(`/proc/${p}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
      if (m) total += Number(m[1]);
    } catch {}
    stack.push(...(children.get(p) ?? []));
  }
  return total / 1024;
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
