// The viewer the `specdiff` binary carries, in headless Chromium (playwright-core):
// `specdiff view` serving real dumps, and the one-file report of `diff --format html`.
//
//   node tests/e2e/view.mjs --specdiff target/release/specdiff --base B.json --head H.json
//                           --report R.json [--out out/e2e]
//
// R.json is `specdiff diff --format json` of the same dumps. Checks:
//   - `specdiff view --no-open --port 0 BASE HEAD`: the printed URL (`/t/TOKEN/`) shows the JSON
//     report's rows, the panes name the files, nothing is requested outside the server;
//     requests without the token or with a wrong one get 403, with a foreign Host (DNS
//     rebinding) 403, paths with `..` 400, unknown paths 404; Ctrl-C (SIGINT) stops it;
//   - without --no-open: the browser (a stand-in xdg-open) is handed a 0600 file, not the URL,
//     and that file leads Chromium to the page;
//   - `specdiff view BASE`: one run loaded, on the base side;
//   - `diff --format html` (reduced) and `--full` opened from file://: the report's rows (the
//     reduced one says how many code objects it kept), zero network requests, no console
//     errors.

import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import { expectedRows, launchChromium, parseArgs, root, shownRows } from './common.mjs';

const args = parseArgs();
const specdiff = path.resolve(args.specdiff ?? path.join(root, 'target/release/specdiff'));
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
const report = JSON.parse(fs.readFileSync(args.report, 'utf8'));

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Whole dumps on the page: the report's changed functions with its rows, plus one row per
 *  function present on one side only (the JSON report lists those apart), badged added or
 *  removed alone. */
function checkWholeRows(rows, label) {
  const matched = new Set(report.functions.map((f) => `${f.module}:${f.qualname}`));
  const want = expectedRows(report, false);
  const got = rows.filter((r) => matched.has(r.key));
  check(same(got, want), `${label}: the JSON report's rows (${got.map((r) => r.key).join(', ')})${same(got, want) ? '' : `\n     shown ${JSON.stringify(got)}\n     want  ${JSON.stringify(want)}`}`);
  const oneSide = rows.filter((r) => !matched.has(r.key));
  const nOneSide = report.added_functions.length + report.removed_functions.length;
  const badged = oneSide.every((r) => same(Object.keys(r.badges), ['added']) || same(Object.keys(r.badges), ['removed']));
  check(oneSide.length === nOneSide && badged, `${label}: ${oneSide.length} rows of functions on one side only (the report has ${nOneSide}), added or removed`);
}

/** Starts `specdiff view --no-open --port 0 ...dumps` (`env`: with --no-open left out, in this
 *  environment); resolves with the process and the URL it prints. */
function startView(dumps, env) {
  const open = env ? [] : ['--no-open'];
  const proc = spawn(specdiff, ['view', ...open, '--port', '0', ...dumps], { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/127\.0\.0\.1:\d+\/t\/[0-9a-f]{64}\/) /);
      if (m) resolve({ proc, url: m[1], line: out.trim() });
    });
    proc.on('exit', (code) => reject(new Error(`specdiff view exited with ${code} before printing a URL: ${err}`)));
  });
}

/** Status of a GET of `rawPath` sent as written (no normalisation), with header `Host: host`. */
function rawGet(port, rawPath, host) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(`GET ${rawPath} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    let data = '';
    sock.on('data', (d) => { data += d; });
    sock.on('end', () => resolve(Number((data.match(/^HTTP\/1\.[01] (\d+)/) ?? [])[1])));
    sock.on('error', reject);
  });
}

/** A page that records console errors and every request's URL. */
async function openPage(context, target) {
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(target, { waitUntil: 'load' });
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  return { page, errors, requests };
}

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });

  // 1. specdiff view BASE HEAD
  const view = await startView([args.base, args.head]);
  const port = Number(new URL(view.url).port);
  try {
    check(port > 0, `specdiff view printed its URL: ${view.line}`);
    const { page, errors, requests } = await openPage(context, view.url);
    await page.waitForSelector('.top-list', { timeout: 20000 });
    check((await page.textContent('.top-list')).includes('dot_sum'), 'view: the page at the printed URL shows the diff');
    const files = await page.$$eval('.side-file', (els) => els.map((e) => e.textContent));
    const want = [`base-${path.basename(args.base)}`, `head-${path.basename(args.head)}`];
    check(same(files, want), `view: the panes name the dumps (${files.join(', ')})`);
    checkWholeRows(await shownRows(page), 'view');
    const outside = requests.filter((u) => !u.startsWith(view.url) && !/^(blob|data):/.test(u));
    check(outside.length === 0, `view: nothing requested outside the server (${outside.join(', ') || 'none'})`);
    check(errors.length === 0, `view: no console errors (${errors.join(' | ') || 'none'})`);
    await page.screenshot({ path: path.join(outDir, 'view.png') });
    await page.close();

    const ours = `127.0.0.1:${port}`;
    const root = new URL(view.url).pathname; // /t/TOKEN/
    const statuses = {
      page: await rawGet(port, root, ours),
      localhost: await rawGet(port, root, `localhost:${port}`),
      noToken: await rawGet(port, '/', ours),
      noTokenDump: await rawGet(port, '/dumps/' + want[0], ours),
      wrongToken: await rawGet(port, `/t/${'0'.repeat(64)}/dumps/${want[0]}`, ours),
      foreignHost: await rawGet(port, root, `evil.example:${port}`),
      foreignPort: await rawGet(port, root, '127.0.0.1:1'),
      dotdot: await rawGet(port, `${root}dumps/../dumps/${want[0]}`, ours),
      encodedDotdot: await rawGet(port, `${root}%2e%2e/%2e%2e/etc/passwd`, ours),
      unknown: await rawGet(port, `${root}dumps/`, ours),
      dump: await rawGet(port, `${root}dumps/${want[0]}`, ours),
    };
    const expected = { page: 200, localhost: 200, noToken: 403, noTokenDump: 403, wrongToken: 403, foreignHost: 403, foreignPort: 403, dotdot: 400, encodedDotdot: 400, unknown: 404, dump: 200 };
    check(same(statuses, expected), `view: no or a wrong token refused (403), foreign Host refused (403), .. refused (400), only known paths (404) ${JSON.stringify(statuses)}`);
    // node's http client too, as a script on a rebinding page would send it.
    const viaHttp = await new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: root, headers: { Host: 'rebind.example' } }, (r) => { r.resume(); resolve(r.statusCode); }));
    check(viaHttp === 403, `view: a request naming another host gets 403 (${viaHttp})`);
  } finally {
    view.proc.kill('SIGINT');
  }
  const code = await new Promise((resolve) => (view.proc.exitCode !== null ? resolve(view.proc.exitCode) : view.proc.on('exit', (c, s) => resolve(c ?? s))));
  check(code === 130, `view: Ctrl-C (SIGINT) stops it (exit ${code})`);

  // 1b. what the browser is started with: a file (0600) that leads it to the URL with the token,
  // so the token is on no command line. A stand-in xdg-open records the file; Chromium opens it.
  if (process.platform === 'linux') {
    const bin = fs.mkdtempSync(path.join(outDir, 'opener-'));
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${bin}/opened'\n`, { mode: 0o755 });
    const opened = await startView([args.base, args.head], { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    try {
      const recorded = path.join(bin, 'opened');
      for (let i = 0; i < 200 && !fs.existsSync(recorded); i++) await new Promise((r) => setTimeout(r, 50));
      const file = fs.readFileSync(recorded, 'utf8');
      const mode = (fs.statSync(file).mode & 0o777).toString(8);
      check(!file.includes('/t/') && mode === '600', `view: the browser is handed ${file} (mode ${mode}), not the URL`);
      const { page, errors } = await openPage(context, 'file://' + file);
      await page.waitForSelector('.top-list', { timeout: 20000 });
      check(page.url().startsWith(opened.url) && (await page.textContent('.top-list')).includes('dot_sum'), `view: that file leads Chromium to the page with the diff (${page.url()})`);
      check(errors.length === 0, `view: no console errors after the opener (${errors.join(' | ') || 'none'})`);
      await page.close();
    } finally {
      opened.proc.kill('SIGINT');
      fs.rmSync(bin, { recursive: true, force: true });
    }
  }

  // 2. specdiff view BASE: one run
  const single = await startView([args.base]);
  try {
    const { page, errors } = await openPage(context, single.url);
    await page.waitForSelector('.side-base .side-file', { timeout: 20000 });
    const files = await page.$$eval('.side-file', (els) => els.map((e) => e.textContent));
    check(same(files, [`base-${path.basename(args.base)}`]), `view BASE: one run, on the base side (${files.join(', ')})`);
    check(errors.length === 0, `view BASE: no console errors (${errors.join(' | ') || 'none'})`);
    await page.close();
  } finally {
    single.proc.kill('SIGINT');
  }

  // 3. the HTML report from file://
  for (const full of [false, true]) {
    const file = path.join(outDir, full ? 'report-full.html' : 'report.html');
    execFileSync(specdiff, ['diff', '--format', 'html', ...(full ? ['--full'] : []), '-o', file, args.base, args.head]);
    const label = full ? 'report --full' : 'report';
    const { page, errors, requests } = await openPage(context, 'file://' + file);
    await page.waitForSelector('.top-list', { timeout: 20000 });
    check((await page.textContent('.top-list')).includes('dot_sum'), `${label} (${fs.statSync(file).size} bytes): the diff is shown from file://`);
    const note = await page.evaluate(() => [...document.querySelectorAll('.side-note')].map((e) => e.textContent));
    check(full ? note.length === 0 : note.length === 2 && note.every((n) => /\d+ of [\d,]+ code objects/.test(n)), `${label}: ${full ? 'whole dumps' : 'says what it kept'} (${note.join(' | ') || 'no note'})`);
    const rows = await shownRows(page);
    if (full) {
      checkWholeRows(rows, label);
    } else {
      const wantRows = expectedRows(report, true);
      check(same(rows, wantRows), `${label}: the JSON report's changed functions (${rows.map((r) => r.key).join(', ')})${same(rows, wantRows) ? '' : `\n     shown ${JSON.stringify(rows)}\n     want  ${JSON.stringify(wantRows)}`}`);
    }
    const network = requests.filter((u) => !/^(blob|data|file):/.test(u));
    check(network.length === 0, `${label}: zero network requests (${network.join(', ') || 'none'})`);
    check(errors.length === 0, `${label}: no console errors (${errors.join(' | ') || 'none'})`);
    // The hash now holds the functions tab; a reload opens the runs again on that tab.
    await page.reload();
    await page.waitForSelector('.frow[data-key="__main__:dot_sum"]', { timeout: 20000 });
    check(same(await shownRows(page), rows), `${label}: a reload shows the same rows`);
    await page.screenshot({ path: path.join(outDir, full ? 'report-full.png' : 'report.png') });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(failures ? `view: ${failures} check(s) failed` : 'view: all checks passed');
process.exit(failures ? 1 : 0);
