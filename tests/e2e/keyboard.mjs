// The page by keyboard alone, its state in the URL, and links that work where they are pasted
// (issue 33), in headless Chromium (playwright-core). No mouse API is used in the walks: every
// step is a key press (page.keyboard) or, to pick files, the panes' file inputs.
//
//   node tests/e2e/keyboard.mjs --url http://127.0.0.1:PORT/ --base B.json --head H.json
//                               [--specdiff target/release/specdiff] [--out out/e2e]
//
// Run by scripts/e2e.sh on the dist/ it serves and the demo dumps it makes. Checks, at 390×844
// and at 1280×800:
//   - a keyboard-only walk: Tab to "load demo", Enter; the worst regression is said in words
//     and its button has the focus; Enter opens it; a fold and a site's link are reached with
//     Tab and opened with Enter; the share dialog takes the focus and keeps it (Tab goes round
//     it), "copy" puts the link with the site on the clipboard; Esc closes the dialog (the
//     focus goes back to the site's link), Esc again closes the function view (the focus goes
//     to its row in the list);
//   - search by `module:qualname` (the CLI's form) and by opname (`BINARY_OP_ADD_INT`);
//   - the URL round trip, on the demo pair and on the big pair: search, kind filter, sort, site
//     set; a reload without the dumps says what is missing; the same dumps picked again bring
//     back the same state and URL.
// With --specdiff: the one-file report of `diff --format html` offers no "load demo" and its
// share link uses `--link`'s address, or says the link opens only on this machine.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { launchChromium, parseArgs, root } from './common.mjs';

const args = parseArgs();
const url = args.url ?? 'http://127.0.0.1:8080/';
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

/** A description of the focused element: tag, classes, key, text. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { tag: 'BODY', cls: '', key: null, text: '', inDialog: false };
  return {
    tag: el.tagName,
    cls: el.className || '',
    key: el.dataset?.key ?? el.closest('[data-key]')?.dataset.key ?? null,
    text: (el.textContent || el.value || '').trim().slice(0, 80),
    inDialog: !!el.closest('[role=dialog]'),
    site: el.closest('tr[data-site]')?.dataset.site ?? null,
  };
});

/** Presses Tab until `want(focused)` holds (at most `max` presses); the element, or null. */
async function tabTo(page, want, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (want(f)) return f;
  }
  return null;
}

/** Picks `base` then `head` on the panes' file inputs (base first: it must land before head). */
async function pickPair(page, base, head, timeout) {
  await page.setInputFiles('.side-base input[type=file]', base);
  await page.waitForSelector('.side-base .side-file', { timeout });
  await page.setInputFiles('.side-head input[type=file]', head);
}

/**
 * The walk at one size and colour scheme, on the demo pair (loaded with "load demo" from the
 * keyboard) or on a picked pair (`big`: {base, head}, set on the panes' file inputs, which
 * open the system's file dialog that no page test can drive; everything after is keyboard).
 */
async function walk(browser, width, height, colorScheme, big = null) {
  const label = `${big ? 'big pair' : 'demo'} ${width}×${height} ${colorScheme}`;
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });

  if (big) {
    await pickPair(page, big.base, big.head, 60000);
  } else {
    // Load the demo pair from the keyboard.
    const demo = await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'load demo');
    check(demo !== null, `${label}: Tab reaches "load demo"`);
    await page.keyboard.press('Enter');
  }
  // The diff's overview ("N matched"), not the one-run overview shown while head still loads.
  await page.waitForFunction(() => /matched/.test(document.querySelector('.overview')?.innerText ?? ''), null, { timeout: 60000 });
  const shot = (what) => page.screenshot({ path: path.join(outDir, `keyboard-${big ? 'big' : 'demo'}-${width}-${colorScheme}-${what}.png`) });
  let worst;
  if (await page.$('.card.worst button')) {
    const worstText = (await page.textContent('.worst-text')).replace(/\s+/g, ' ');
    check(/^Worst regression: \S+ \(.+:\d+\) · \d+ regressions? · /.test(worstText), `${label}: the worst regression in words: ${worstText}`);
    await page.waitForFunction(() => document.activeElement?.closest('.card.worst'), null, { timeout: 5000 }).catch(() => {});
    const onWorst = await focused(page);
    check(onWorst.tag === 'BUTTON' && onWorst.cls.includes('primary') && onWorst.key, `${label}: after loading, the focus is on "open ${onWorst.key}" (not the page's body: ${onWorst.tag})`);
    worst = onWorst.key;
    await shot('overview');
    // Enter opens it.
    await page.keyboard.press('Enter');
  } else {
    // No regression (the benchmark's pair only gains): the Functions tab, key 2, opens on the
    // first changed function.
    check(big !== null, `${label}: no worst regression is said only where the pair has none (the benchmark's pair only gains)`);
    await shot('overview');
    await page.keyboard.press('2');
    await page.waitForSelector('.fview[data-key]', { timeout: 10000 });
    worst = await page.$eval('.fview[data-key]', (e) => e.dataset.key);
  }
  await page.waitForSelector(`.fview[data-key="${worst}"] tr.insrow.marked`, { timeout: 10000 });
  check(page.url().includes(`fn=${encodeURIComponent(worst)}`), `${label}: ${worst} is open, its changed sites marked`);

  // A fold, reached with Tab and opened with Enter, stays open in the URL.
  const folds = await page.$$eval('.fview tr.fold button', (b) => b.length);
  if (folds > 0) {
    const fold = await tabTo(page, (f) => f.tag === 'BUTTON' && f.text.includes('folded'));
    check(fold !== null, `${label}: Tab reaches a fold (${fold?.text})`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /[#&]open=\d/.test(location.hash), null, { timeout: 5000 }).catch(() => {});
    const inListing = await page.evaluate(() => !!document.activeElement?.closest('.listing-wrap'));
    check(inListing, `${label}: the focus stays in the listing once the fold is open`);
    check(/[#&]open=\d/.test(new URL(page.url()).hash), `${label}: Enter unfolds it, and the URL keeps it (${new URL(page.url()).hash.match(/open=[\d.]+/)})`);
  }

  // A site's link: the share dialog takes the focus and keeps it.
  const site = await tabTo(page, (f) => f.tag === 'BUTTON' && f.cls.includes('site-link'));
  check(site !== null, `${label}: Tab reaches a changed site's link (row ${site?.site})`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.modal.share .share-url', { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('.share-url')?.value.includes('site='), null, { timeout: 20000 });
  const inDialog = await focused(page);
  check(inDialog.inDialog && inDialog.text === 'copy', `${label}: the share dialog takes the focus (${inDialog.tag} "${inDialog.text}")`);
  let kept = true;
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    kept &&= (await focused(page)).inDialog;
  }
  check(kept, `${label}: Tab and Shift+Tab stay inside the dialog`);
  await tabTo(page, (f) => f.inDialog && f.text === 'copy', 10);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.modal.share button.primary')?.textContent === 'copied', null, { timeout: 5000 }).catch(() => {});
  const link = await page.inputValue('.share-url');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === link && link.includes('#share=s4.') && link.includes(`site=${site?.site}`),
    `${label}: Enter on "copy" puts the site's link on the clipboard (${copied.length} characters, site=${site?.site})`);
  const where = await page.textContent('.share-where');
  check(/only on this machine/.test(where), `${label}: on 127.0.0.1 the box says the link opens only here: ${where.trim().slice(0, 60)}…`);
  await shot('share');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.modal.share', { state: 'detached' });
  const back = await focused(page);
  check(back.cls.includes('site-link') && back.site === site?.site, `${label}: Esc closes the dialog and gives the focus back to the site's link`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.fview.empty', { timeout: 5000 }).catch(() => {});
  // The row takes the focus once the list has re-rendered it (on a big pair that can be a
  // frame or two after the view closed).
  await page.waitForFunction(() => document.activeElement?.classList.contains('frow'), null, { timeout: 5000 }).catch(() => {});
  const row = await focused(page);
  check(!page.url().includes('fn=') && row.cls.includes('frow') && row.key === worst, `${label}: Esc closes the function view; the focus is on its row (${row.key})`);
  // Arrow keys move between the rows; Enter opens one.
  const rowCount = await page.$$eval('.frow', (r) => r.length);
  await page.keyboard.press('ArrowDown');
  const next = await focused(page);
  check(next.cls.includes('frow') && (rowCount > 1 ? next.key !== worst : next.key === worst),
    `${label}: ArrowDown moves to the next row, or stays on the only one (${next.key}; ${rowCount} rows)`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.fview[data-key="${next.key}"]`, { timeout: 10000 });
  check(true, `${label}: Enter on a row opens it`);

  if (big) {
    // Search: the CLI's `module:qualname` of the worst regression finds it.
    await page.keyboard.press('/');
    await page.keyboard.type(worst);
    await page.waitForFunction((k) => [...document.querySelectorAll('.frow')].some((e) => e.dataset.key === k), worst, { timeout: 5000 }).catch(() => {});
    const found = await page.$$eval('.frow', (r) => r.map((e) => e.dataset.key));
    check(found.includes(worst), `${label}: search finds ${worst} (${found.length} rows)`);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    check(errors.length === 0, `${label}: no page errors (${errors.join(' | ') || 'none'})`);
    await context.close();
    return;
  }
  // Search: the CLI's `module:qualname`, and an opname.
  await page.keyboard.press('/');
  await page.keyboard.type('__main__:scale');
  await page.waitForFunction(() => document.querySelectorAll('.frow').length === 1, null, { timeout: 5000 }).catch(() => {});
  check((await page.$$eval('.frow', (r) => r.map((e) => e.dataset.key))).join() === '__main__:scale', `${label}: search finds __main__:scale`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('BINARY_OP_ADD_INT');
  await page.waitForFunction(() => ![...document.querySelectorAll('.frow')].some((e) => e.dataset.key === '__main__:dot_sum'), null, { timeout: 5000 }).catch(() => {});
  const byOp = await page.$$eval('.frow', (r) => r.map((e) => e.dataset.key));
  check(byOp.includes('__main__:scale') && !byOp.includes('__main__:Point.__init__'), `${label}: search finds the opname BINARY_OP_ADD_INT (${byOp.join(', ')})`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Escape');
  check(errors.length === 0, `${label}: no page errors (${errors.join(' | ') || 'none'})`);
  await context.close();
}

/**
 * The URL round trip on a picked pair: search `query`, the `kind` chip, sort by hotness, a
 * function and one of its sites; a reload without the dumps says what is missing, and the
 * same dumps picked again bring back the same state. The demo pair (a worst regression, whose
 * button takes the focus after the second pick) and the big pair (~8k code objects, which
 * only gains: no worst regression is said, so the focus check is the demo's).
 */
async function roundTrip(browser, { name, base, head, query, kind, timeout }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pick = () => pickPair(page, base, head, timeout);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  await pick();
  await page.waitForFunction(() => /matched/.test(document.querySelector('.overview')?.innerText ?? ''), null, { timeout });
  if (await page.$('.card.worst')) {
    const afterPick = await focused(page);
    check(afterPick.tag !== 'BODY', `${name}: after the second pick the focus is on ${afterPick.tag} "${afterPick.text}", not the page's body`);
  }
  // Search, kind filter, sort, a function and one of its sites.
  await page.keyboard.press('/');
  await page.keyboard.type(query);
  const chip = await tabTo(page, (f) => f.cls.includes('chip') && f.text.startsWith(kind));
  check(chip !== null, `${name}: Tab reaches the "${kind}" chip`);
  await page.keyboard.press('Enter');
  await page.selectOption('select.sort', 'hotness');
  const fn = await tabTo(page, (f) => f.cls.includes('frow'));
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.fview[data-key="${fn?.key}"] tr.insrow.marked`, { timeout: 10000 });
  const site = await tabTo(page, (f) => f.cls.includes('site-link'));
  await page.keyboard.press('Enter');
  await page.waitForSelector('.modal.share .share-url', { timeout: 20000 });
  await page.keyboard.press('Escape');
  const hash = new URL(page.url()).hash;
  const want = [`q=${query}`, `kind=${kind}`, 'sort=hotness', `fn=${encodeURIComponent(fn?.key)}`, `site=${site?.site}`];
  check(want.every((w) => hash.includes(w)), `${name}: the URL holds the state: ${hash}`);
  const state = () => page.evaluate(() => ({
    query: document.querySelector('input.search')?.value,
    chip: document.querySelector('.filter-chips .chip.on')?.textContent.trim(),
    sort: document.querySelector('select.sort')?.value,
    fn: document.querySelector('.fview')?.dataset.key,
    site: document.querySelector('tr.selected-site')?.dataset.site,
    hash: location.hash,
  }));
  const before = await state();
  // A reload forgets picked files: the page says so, in place of the welcome page.
  await page.reload();
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  const missing = await page.textContent('.missing-runs').catch(() => '');
  check(missing.includes(fn?.key) && /not loaded/.test(missing), `${name}: a reload without the dumps says what is missing: ${missing.slice(0, 90)}…`);
  check(new URL(page.url()).hash === hash, `${name}: the reload keeps the URL`);
  await page.screenshot({ path: path.join(outDir, `keyboard-${name}-missing.png`) });
  await pick();
  // The diff's listing (a changed site has its kind; one run's rows have none).
  await page.waitForSelector(`.fview[data-key="${fn?.key}"] tr.selected-site:not([data-class=""])`, { timeout });
  const after = await state();
  check(JSON.stringify(after) === JSON.stringify(before), `${name}: the same dumps picked again bring back the same state (${JSON.stringify(after)})`);
  await context.close();
}

/** The one-file report: no "load demo", and share links on `--link`'s address or said local. */
async function report(browser) {
  const dir = fs.mkdtempSync(path.join(outDir, 'report-'));
  for (const [name, extra] of [['hosted', ['--link', 'https://example.github.io/specdiff/']], ['local', []]]) {
    const file = path.join(dir, `${name}.html`);
    execFileSync(args.specdiff, ['diff', '--format', 'html', '-o', file, ...extra, args.base, args.head], { env: { ...process.env, SPECDIFF_LINK_BASE: '' } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('file://' + file);
    await page.waitForSelector('.card.worst', { timeout: 20000 });
    const buttons = await page.$$eval('button', (b) => b.map((e) => e.textContent.trim()));
    check(!buttons.some((t) => /demo/.test(t)), `report (${name}): no "load demo" (its demo would be the report's own runs)`);
    const share = await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'share link');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.share-url', { timeout: 20000 });
    const link = await page.inputValue('.share-url');
    const where = (await page.textContent('.share-where')).trim();
    if (name === 'hosted') {
      check(share && link.startsWith('https://example.github.io/specdiff/#share=s4.') && !/only on this machine/.test(where), `report with --link: the share link opens the hosted viewer (${link.slice(0, 50)}…)`);
    } else {
      check(share && link.startsWith('file://') && /only on this machine/.test(where), `report without --link: it says the link opens only on this machine`);
    }
    await context.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

const browser = await launchChromium();
try {
  const big = args['big-base'] && args['big-head'] ? { base: path.resolve(args['big-base']), head: path.resolve(args['big-head']) } : null;
  for (const colorScheme of ['light', 'dark']) {
    for (const [w, h] of [[390, 844], [1280, 800]]) {
      await walk(browser, w, h, colorScheme);
      if (big) await walk(browser, w, h, colorScheme, big);
    }
  }
  await roundTrip(browser, { name: 'demo', base: args.base, head: args.head, query: 'dot', kind: 'lost', timeout: 20000 });
  if (big) await roundTrip(browser, { name: 'big pair', ...big, query: 'norm', kind: 'gained', timeout: 60000 });
  if (args.specdiff) await report(browser);
} finally {
  await browser.close();
}
console.log(failures ? `keyboard: ${failures} check(s) failed` : 'keyboard: all checks passed');
process.exit(failures ? 1 : 0);
