// End-to-end test of the built viewer in real headless Chromium (playwright-core).
//
//   node tests/e2e/e2e.mjs --url http://127.0.0.1:PORT/ --base out/e2e/base.json --head out/e2e/head.json
//                          [--offline dist/specdiff-offline.html] [--out out/e2e]
//
// Run by scripts/e2e.sh, which builds dist/, makes the two dumps with `specdiff dump` from
// examples/demo/base.py and head.py, and serves dist/. Exits non-zero on the first failure.
// Screenshots go to --out (default out/e2e).

import fs from 'node:fs';
import path from 'node:path';

import { launchChromium, parseArgs, root } from './common.mjs';

const args = parseArgs();
const url = args.url ?? 'http://127.0.0.1:8080/';
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
fs.mkdirSync(outDir, { recursive: true });
const base = fs.readFileSync(args.base ?? path.join(outDir, 'base.json'), 'latin1');
const head = fs.readFileSync(args.head ?? path.join(outDir, 'head.json'), 'latin1');

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

/** Drops files (name → latin1 text) on the element matching `selector`, as a user would. */
async function drop(page, selector, files) {
  const dt = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const [name, text] of files) {
      const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], name));
    }
    return dt;
  }, files);
  await page.dispatchEvent(selector, 'drop', { dataTransfer: dt });
}

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const requests = [];
  let ready = false;
  const track = (r) => requests.push({ url: r.url(), afterLoad: ready });
  page.on('request', track); // dedicated workers' requests are reported on their page too
  page.on('worker', (w) => console.log(`     worker started: ${w.url().slice(0, 40)}`));

  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  const engine = await page.getAttribute('body', 'data-engine');
  check(engine === 'worker', `the engine runs in a web worker (data-engine=${engine})`);
  ready = true;
  await page.screenshot({ path: path.join(outDir, 'empty.png') });

  // Two real dumps, dropped anywhere on the page (head first: sides are chosen by name).
  await drop(page, 'main', [['head.json', head], ['base.json', base]]);
  await page.waitForSelector('.top-list', { timeout: 20000 });
  check((await page.textContent('.side-base .side-file')) === 'base.json', 'base.json lands on the base side');
  check((await page.textContent('.side-head .side-file')) === 'head.json', 'head.json lands on the head side');
  const facts = await page.textContent('.side-head .side-facts');
  check(/CPython 3\.\d+/.test(facts) && facts.includes('examples/demo/head.py'), `head label: ${facts}`);
  const top = await page.textContent('.top-list');
  for (const fn of ['dot_sum', 'total_area', 'scale']) check(top.includes(fn), `top regressions list ${fn}`);
  check((await page.$$('.top-list .badge.c-lost')).length >= 3, 'regressions are classified lost');
  check((await page.$('.family-chart .fam[data-family="LOAD_ATTR"]')) !== null, 'family chart shows LOAD_ATTR');
  check((await page.$$('.family-chart .fam.regressed')).length >= 1, 'family chart marks the regressed families');
  await page.screenshot({ path: path.join(outDir, 'overview.png') });

  // The regressed function and site, opened from the list.
  await page.click('[data-tab=functions]');
  await page.click('.frow[data-key="__main__:dot_sum"]');
  await page.waitForSelector('.fview[data-key="__main__:dot_sum"] tr.insrow[data-class=lost]');
  const lostRow = await page.textContent('.fview tr.insrow[data-class=lost]');
  check(lostRow.includes('LOAD_ATTR_SLOT'), `dot_sum: the lost site is LOAD_ATTR_SLOT (${lostRow.replace(/\s+/g, ' ').trim()})`);
  const explain = await page.textContent('.fview tr.explain-row.c-lost');
  check(explain.includes('getattr'), `explained inline: ${explain.trim()}`);
  check(page.url().includes('fn=__main__%3Adot_sum'), 'the selected function is in the URL');
  const tip = await page.getAttribute('.fview tr.insrow[data-class=lost] .counter', 'title');
  check(/miss|specializ|attempt|run/.test(tip ?? ''), `counter tooltip in plain words: ${tip}`);
  await page.screenshot({ path: path.join(outDir, 'function.png') });

  // Keyboard: j / k walk the changed functions, / focuses the search.
  await page.keyboard.press('j');
  await page.waitForFunction(() => !location.hash.includes('dot_sum'));
  const afterJ = await page.getAttribute('.frow.selected', 'data-key');
  await page.keyboard.press('k');
  await page.waitForFunction(() => location.hash.includes('dot_sum'));
  check(afterJ && afterJ !== '__main__:dot_sum', `j moved to ${afterJ}, k came back`);
  await page.keyboard.press('/');
  check(await page.evaluate(() => document.activeElement?.classList.contains('search')), '/ focuses the search box');
  await page.keyboard.type('scale');
  await page.waitForFunction(() => document.querySelectorAll('.frow').length === 1);
  check((await page.textContent('.frow .qual')) === 'scale', 'search filters the list');
  await page.fill('input.search', '');
  await page.keyboard.press('Escape');

  // Back / forward.
  await page.goBack();
  await page.waitForFunction(() => !location.hash.includes('dot_sum'));
  await page.goForward();
  await page.waitForFunction(() => location.hash.includes('dot_sum'));
  await page.waitForSelector('.fview[data-key="__main__:dot_sum"]');
  check(true, 'back and forward restore the selection');

  // Help.
  await page.keyboard.press('?');
  check((await page.$('.modal[aria-label=help]')) !== null, '? opens the help');
  await page.keyboard.press('Escape');

  // A bad file on one side: its message, the other side stays.
  await drop(page, '.side-card.side-head', [['broken.json', '{"format": "specdiff-dump", "version": 1, "code": [']]);
  await page.waitForSelector('.side-head .side-error');
  const err = await page.textContent('.side-head .side-error');
  check(err === 'broken.json: truncated: the JSON ends early (line 1)', `bad file message: ${err}`);
  check((await page.textContent('.side-base .side-file')) === 'base.json', 'the other side stays loaded');
  await page.screenshot({ path: path.join(outDir, 'error.png') });

  // Share link: made from the loaded pair, opened in a fresh page with no files.
  await drop(page, '.side-card.side-head', [['head.json', head]]);
  await page.waitForSelector('.side-head .side-file');
  await page.click('text=share link');
  await page.waitForSelector('.share-url');
  const link = await page.inputValue('.share-url');
  check(link.includes('#share=s4.'), `share link made (${link.length} characters)`);
  const shared = await context.newPage();
  shared.on('pageerror', (e) => consoleErrors.push(String(e)));
  await shared.goto(link);
  await shared.waitForSelector('.fview tr.insrow[data-class=lost]', { timeout: 20000 });
  check((await shared.textContent('.side-head .side-file')) === 'head (share link)', 'the share link opens the diff');
  await shared.goto(url + '#share=s1.AAAA');
  await shared.waitForSelector('.notice.error');
  check((await shared.textContent('.notice.error')).startsWith('share link: '), `bad link: ${await shared.textContent('.notice.error')}`);
  await shared.close();
  // The box says what the link holds before it is copied; its switch makes the link again
  // without source lines and with short paths, and the view it opens shows no source.
  const holds = await page.textContent('.share-holds');
  check(holds.includes('source lines and full file paths'), `the share box says what the link holds (${holds})`);
  const withSource = await context.newPage();
  await withSource.goto(link);
  await withSource.waitForSelector('.fview tr.insrow[data-class=lost]', { timeout: 20000 });
  const sourceRows = await withSource.$$eval('.fview tr.src .srctext', (els) => els.filter((e) => e.textContent.trim()).length);
  await withSource.close();
  await page.check('.share-redact input');
  await page.waitForFunction((before) => document.querySelector('.share-url')?.value !== before, link, { timeout: 20000 });
  const redactedLink = await page.inputValue('.share-url');
  const redactedHolds = await page.textContent('.share-holds');
  check(redactedHolds.includes('no source lines, file paths cut to their package') && redactedLink.length < link.length,
    `the switch makes the link without source lines (${redactedLink.length} characters, was ${link.length}: ${redactedHolds})`);
  const redacted = await context.newPage();
  await redacted.goto(redactedLink);
  await redacted.waitForSelector('.fview tr.insrow[data-class=lost]', { timeout: 20000 });
  const redactedSource = await redacted.$$eval('.fview tr.src .srctext', (els) => els.filter((e) => e.textContent.trim()).length);
  check(sourceRows > 0 && redactedSource === 0, `its view shows no source line (${redactedSource}; ${sourceRows} with source)`);
  await redacted.close();
  await page.keyboard.press('Escape');

  // Raw pystats files (CPython 3.11 numbered files), one per side: attached to the loaded dumps.
  if (args.pystats) {
    const raw = (side) => {
      const dir = path.join(args.pystats, side);
      return fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => [f, fs.readFileSync(path.join(dir, f), 'latin1')]);
    };
    await drop(page, '.side-card.side-base', raw('base'));
    await page.waitForFunction(() => document.querySelector('.side-base .side-facts')?.textContent.includes('pystats'));
    await drop(page, '.side-card.side-head', raw('head'));
    await page.waitForFunction(() => document.querySelector('.side-head .side-facts')?.textContent.includes('pystats'));
    check((await page.textContent('.side-base .side-file')) === 'base.json', 'pystats files are attached to the loaded dump');
    await page.click('[data-tab=stats]');
    await page.waitForSelector('.stats-table tbody tr');
    const statsText = await page.textContent('.stats-table');
    check(statsText.includes('LOAD_ATTR') && (await page.$$('.stats-table tbody tr')).length > 5, 'the stats tab shows both runs per family');
    // Sorting: a counter's header sorts by how far it moved (head.py's float mixing moves
    // BINARY_OP's hits most), the name header A→Z, a click again Z→A.
    const families = () => page.$$eval('.stats-table tbody tr:not(.kind-row) > th', (ths) => ths.map((th) => th.firstChild.textContent));
    const hitHeader = page.locator('.stats-table thead tr:first-child th', { hasText: /^hit/ });
    await hitHeader.click();
    const byHit = await families();
    check(byHit[0] === 'BINARY_OP' && (await hitHeader.getAttribute('aria-sort')) === 'descending', `sorted by how far hits moved: ${byHit.slice(0, 3).join(', ')}`);
    const nameHeader = page.locator('.stats-table thead th', { hasText: /^opcode/ });
    await nameHeader.click();
    const byName = await families();
    check(byName.join() === [...byName].sort().join() && byName.length === byHit.length, 'sorted by name');
    await nameHeader.click();
    check((await families()).join() === [...byName].reverse().join() && (await nameHeader.getAttribute('aria-sort')) === 'descending', 'a second click reverses');
    await page.locator('.stats-table thead button', { hasText: /^miss/ }).focus();
    await page.keyboard.press('Enter');
    const missHeader = page.locator('.stats-table thead tr:first-child th', { hasText: /^miss/ });
    check((await families())[0] === 'BINARY_OP' && (await missHeader.getAttribute('aria-sort')) === 'descending', 'a header sorts from the keyboard (Enter)');
    // Failure kinds of BINARY_OP, base against head.
    await page.locator('.stats-table tbody tr', { hasText: 'BINARY_OP' }).locator('.kinds-toggle').click();
    const kinds = await page.$$eval('.stats-table tr.kind-row', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const grew = kinds.filter(([, b, h]) => Number(h.replace(/,/g, '')) > Number(b.replace(/,/g, '')));
    check(kinds.length > 0 && kinds.every(([label]) => label.length > 0) && grew.length > 0, `BINARY_OP's failure kinds: ${kinds.map((k) => k.join(' ')).join('; ')}`);
    await page.screenshot({ path: path.join(outDir, 'stats.png') });
    await page.click('[data-tab=functions]');
  }

  // Dark mode.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(outDir, 'function-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  const late = requests.filter((r) => r.afterLoad && !/^(blob|data):/.test(r.url));
  check(late.length === 0, `no network request after load (${late.map((r) => r.url).join(', ') || 'none'})`);
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(' | ') || 'none'})`);

  // The single self-contained file works from file://.
  if (args.offline) {
    const off = await context.newPage();
    const offErrors = [];
    off.on('pageerror', (e) => offErrors.push(String(e)));
    off.on('console', (m) => { if (m.type() === 'error') offErrors.push(m.text()); });
    const offRequests = [];
    off.on('request', (r) => offRequests.push(r.url()));
    await off.goto('file://' + path.resolve(args.offline));
    await off.waitForSelector('body[data-engine]', { timeout: 20000 });
    const offEngine = await off.getAttribute('body', 'data-engine');
    await drop(off, 'main', [['base.json', base], ['head.json', head]]);
    await off.waitForSelector('.top-list', { timeout: 20000 });
    check((await off.textContent('.top-list')).includes('dot_sum'), `offline file works from file:// (engine: ${offEngine})`);
    const remote = offRequests.filter((u) => !/^(blob|data|file):/.test(u));
    check(remote.length === 0, `offline file makes no network request (${remote.join(', ') || 'none'})`);
    check(offErrors.length === 0, `offline file: no console errors (${offErrors.join(' | ') || 'none'})`);
    await off.screenshot({ path: path.join(outDir, 'offline.png') });
    await off.reload();
    await off.waitForSelector('body[data-engine]', { timeout: 20000 });
    await off.click('text=load demo');
    await off.waitForSelector('.top-list', { timeout: 20000 });
    check((await off.textContent('.top-list')).includes('dot_sum'), 'offline file: the demo pair is built in');
    await off.close();
  }
} finally {
  await browser.close();
}
console.log(failures ? `e2e: ${failures} check(s) failed` : 'e2e: all checks passed');
process.exit(failures ? 1 : 0);
