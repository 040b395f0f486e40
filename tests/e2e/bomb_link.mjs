// A DEFLATE-bomb share link in real headless Chromium (issue 31): 256 MB of spaces deflated
// to ~260 KB, opened as `#share=s4.…`. The page must refuse it with its one-line error once
// it inflates past 64 times its size, and the browser must grow by less than 256 MB (before
// the fix: 64 MB read, ~1 s and ~430 MB here; 5.8–8.6 s and 0.8–1.2 GB when the issue was
// filed). The time is printed, never checked.
//
//   node tests/e2e/bomb_link.mjs --url http://127.0.0.1:PORT/

import zlib from 'node:zlib';

import { launchMeasuredChromium, parseArgs, treeRss } from './common.mjs';

const args = parseArgs();
const bomb = zlib.deflateRawSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });
const link = `${args.url}#share=s4.${bomb.toString('base64url')}`;
const { browser, pid } = await launchMeasuredChromium();
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} bomb link: ${what}`);
  if (!ok) failures++;
}
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(args.url);
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  const before = treeRss(pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRss(pid)); }, 10);
  const started = Date.now();
  await page.goto(link);
  const shown = await page.waitForSelector('.notice.error', { timeout: 60000 }).then((e) => e.textContent());
  const ms = Date.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, treeRss(pid));
  const growth = peak - before;
  check(/^share link: its [\d,]+ bytes of compressed data inflate past [\d.]+ MB, more than 64 times/.test(shown), `refused with the core's sentence (${shown.trim()})`);
  check(growth < 256, `the browser grew by ${growth.toFixed(0)} MB (limit 256 MB), ${bomb.length.toLocaleString('en')} bytes of DEFLATE, refused in ${ms} ms`);
  check(errors.length === 0, `no page errors${errors.length ? `: ${errors.join(' | ')}` : ''}`);
} finally {
  await browser.close();
}
process.exit(failures ? 1 : 0);
