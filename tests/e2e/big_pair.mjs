// Big dumps in the page (issue 17): two dumps picked with the panes' file inputs, as a user
// picks them (Chromium reads the files from disk; nothing is copied through the page first),
// in headless Chromium. Reports the time to the overview, whether a progress bar showed while
// they parsed, and the browser's resident memory (all its processes) before, at its peak while
// loading (sampled every 50 ms) and after, against the dumps' combined size.
//
//   node tests/e2e/big_pair.mjs --url http://127.0.0.1:PORT/ --base B.json --head H.json [--out out/e2e]
//
// Dumps for it: `specdiff dump --include-unrun -o B.json tests/e2e/big_workload.py base 52 500`
// (and `head`), ~100 MB and ~80k code objects each with CPython 3.12.

import fs from 'node:fs';
import path from 'node:path';

import { launchMeasuredChromium, parseArgs, root, treeRss } from './common.mjs';

const args = parseArgs();
const url = args.url ?? 'http://127.0.0.1:8080/';
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
const files = { base: path.resolve(args.base), head: path.resolve(args.head) };
fs.mkdirSync(outDir, { recursive: true });
const mb = (f) => fs.statSync(f).size / 1e6;

const { browser, pid } = await launchMeasuredChromium();
let report;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('body[data-engine="worker"]', { timeout: 20000 });
  const before = treeRss(pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRss(pid)); }, 50);
  const t0 = Date.now();
  let progressSeen = false;
  const progress = page.waitForSelector('.progress', { timeout: 120000 }).then(() => { progressSeen = true; }, () => {});
  const inputs = page.locator('input[type=file]');
  await inputs.nth(0).setInputFiles(files.base);
  await inputs.nth(1).setInputFiles(files.head);
  try {
    await page.waitForFunction(
      () => document.querySelector('.top-list, .overview .card p.muted') && document.querySelectorAll('.side-file').length >= 2,
      null,
      { timeout: Number(args.timeout ?? 300) * 1000, polling: 100 },
    );
  } catch (e) {
    clearInterval(sampler);
    await page.screenshot({ path: path.join(outDir, 'big_pair-timeout.png') }).catch(() => {});
    const text = await page.evaluate(() => document.body.innerText.slice(0, 2000)).catch((x) => String(x));
    console.log(JSON.stringify({ timeout_s: Number(args.timeout ?? 300), peak_rss_mb: Math.round(peak), before_mb: Math.round(before), page_text: text, errors }, null, 2));
    throw e;
  }
  const overviewMs = Date.now() - t0;
  await progress;
  await new Promise((r) => setTimeout(r, 1000));
  clearInterval(sampler);
  const after = treeRss(pid);
  peak = Math.max(peak, after);
  const shown = await page.evaluate(() => [...document.querySelectorAll('.side-file')].map((e) => e.textContent));
  const combined = mb(files.base) + mb(files.head);
  report = {
    dumps_mb: { base: Math.round(mb(files.base) * 10) / 10, head: Math.round(mb(files.head) * 10) / 10 },
    sides_shown: shown,
    overview_ms: overviewMs,
    progress_bar_shown: progressSeen,
    browser_rss_mb: { before: Math.round(before), peak: Math.round(peak), after: Math.round(after) },
    growth_over_dumps: { peak: Math.round(((peak - before) / combined) * 100) / 100, after: Math.round(((after - before) / combined) * 100) / 100 },
    page_errors: errors,
  };
} finally {
  await browser.close();
}
fs.writeFileSync(path.join(outDir, 'big_pair.json'), JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
