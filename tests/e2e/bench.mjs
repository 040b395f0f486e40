// Browser benchmark of the viewer: two whole-program dumps (tests/e2e/bench_workload.py, which
// imports a large part of the standard library; --include-unrun: ~8k code objects each) dropped
// on the page in headless Chromium. Reports the time to the first rendered overview (median of
// --runs), its phases, the time to open a function, list scrolling, memory, and the native
// `specdiff diff` time on the same pair.
//
//   node tests/e2e/bench.mjs --url http://127.0.0.1:PORT/ [--python python3] [--runs 3] [--out out/e2e]
//
// The dumps are made once with target/release/specdiff (cargo build --release -p specdiff-cli)
// and kept in --out as bench-base.json / bench-head.json.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { launchMeasuredChromium, parseArgs, root, treeRss } from './common.mjs';

const args = parseArgs();
const url = args.url ?? 'http://127.0.0.1:8080/';
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
const runs = Number(args.runs ?? 3);
const python = args.python ?? 'python3';
const specdiff = path.join(root, 'target/release/specdiff');
fs.mkdirSync(outDir, { recursive: true });

const files = { base: path.join(outDir, 'bench-base.json'), head: path.join(outDir, 'bench-head.json') };
for (const [side, file] of Object.entries(files)) {
  if (!fs.existsSync(file)) {
    execFileSync(specdiff, ['dump', '--python', python, '--include-unrun', '-o', file, path.join(root, 'tests/e2e/bench_workload.py'), side], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
const codeObjects = (f) => JSON.parse(fs.readFileSync(f, 'utf8')).code.length;
const sizes = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, { mb: fs.statSync(f).size / 1e6, code: codeObjects(f) }]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Native: `specdiff diff` on the same pair (reads, parses, diffs, prints).
const native = [];
for (let i = 0; i < runs; i++) {
  const t = process.hrtime.bigint();
  try {
    execFileSync(specdiff, ['diff', files.base, files.head], { stdio: 'ignore' });
  } catch (e) {
    if (e.status === undefined) throw e; // a non-zero status only says "regressions found"
  }
  native.push(Number(process.hrtime.bigint() - t) / 1e6);
}

const { browser, pid } = await launchMeasuredChromium(['--enable-precise-memory-info']);
const base = fs.readFileSync(files.base, 'latin1');
const head = fs.readFileSync(files.head, 'latin1');
const results = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForSelector('body[data-engine="worker"]', { timeout: 20000 });
    const rssBefore = pid ? treeRss(pid) : NaN;
    // Files are built in the page before the clock starts (a user's drop hands them over ready).
    await page.evaluate(([b, h]) => {
      const toFile = (text, name) => new File([Uint8Array.from(text, (c) => c.charCodeAt(0))], name);
      window.benchFiles = [toFile(b, 'base.json'), toFile(h, 'head.json')];
    }, [base, head]);
    const r = await page.evaluate(() => new Promise((resolve) => {
      window.specdiffTimeline = [];
      const dt = new DataTransfer();
      for (const f of window.benchFiles) dt.items.add(f);
      const t0 = performance.now();
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
      let frames = 0, longest = 0, last = t0;
      const tick = () => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        frames++;
        const done = document.querySelector('.top-list, .overview .card p.muted') && document.querySelector('.side-head .side-file');
        if (done) {
          // One more frame so the overview is painted.
          requestAnimationFrame(() => resolve({
            overview: performance.now() - t0,
            longestFrame: longest,
            frames,
            timeline: window.specdiffTimeline.map(([k, l, t]) => [k, l, Math.round(t - t0)]),
            heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null,
          }));
        } else {
          requestAnimationFrame(tick);
        }
      };
      requestAnimationFrame(tick);
    }));
    r.rssBeforeMB = rssBefore;
    r.rssAfterMB = pid ? treeRss(pid) : NaN;
    // Opening a function (j) and scrolling the full list (show unchanged: every function).
    r.openFunction = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
      const poll = () => (document.querySelector('.fview[data-key] tbody tr') ? resolve(performance.now() - t0) : requestAnimationFrame(poll));
      poll();
    }));
    await page.check('.flist-count input[type=checkbox]');
    r.scroll = await page.evaluate(() => new Promise((resolve) => {
      const list = document.querySelector('.vlist');
      const rows = document.querySelectorAll('.frow').length;
      let n = 0, last = performance.now(), worst = 0;
      const step = () => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
        list.scrollTop += 900;
        list.dispatchEvent(new Event('scroll'));
        if (++n < 120) requestAnimationFrame(step);
        else resolve({ frames: n, worstFrameMs: worst, domRows: rows, total: document.querySelector('.flist-count span').textContent });
      };
      requestAnimationFrame(step);
    }));
    results.push(r);
    await page.close();
  }
} finally {
  await browser.close();
}

const overview = median(results.map((r) => r.overview));
const report = {
  dumps: sizes,
  native_specdiff_diff_ms: Math.round(median(native)),
  browser_first_overview_ms: Math.round(overview),
  browser_first_overview_runs_ms: results.map((r) => Math.round(r.overview)),
  longest_main_thread_frame_during_load_ms: Math.round(median(results.map((r) => r.longestFrame))),
  timeline_ms: results[0].timeline,
  open_function_ms: Math.round(median(results.map((r) => r.openFunction))),
  scroll: results[0].scroll,
  main_thread_js_heap_mb: Math.round(median(results.map((r) => r.heapMB))),
  browser_rss_mb: { before: Math.round(results[0].rssBeforeMB), after_overview: Math.round(results[0].rssAfterMB) },
  goal_first_overview_ms: 1500,
};
fs.writeFileSync(path.join(outDir, 'bench.json'), JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
