// The JIT's traces in the page (issue 35), in real headless Chromium: a pair dumped with
// PYTHON_JIT=1 on native CPython 3.14+ (crates/cli/tests/programs/jit/type_mixed: the loop's
// int add became the mixed form) is loaded, `total` opened by the URL, and its loop's trace
// shown base and head side by side:
//   - the loop is marked changed, with the diff's sentence;
//   - each column holds exactly its run's main-trace uops, in order (read from the dumps);
//   - where the traces differ, both sides are marked;
//   - a uop is a button that selects the instruction it came from: the listing row selected
//     is the one at the uop's bytecode offset in the dump;
//   - axe-core finds no violation in the traces at 390x844 and 1280x800, light and dark;
//   - the page's share link, opened in a fresh page, shows the same trace.
//
//   node tests/e2e/traces.mjs --url http://127.0.0.1:PORT/ --base BASE.json --head HEAD.json [--out DIR]

import fs from 'node:fs';
import path from 'node:path';

import { launchChromium, parseArgs, root } from './common.mjs';

const args = parseArgs();
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
const axeSource = fs.readFileSync(path.join(root, '.tools/npm/node_modules/axe-core/axe.min.js'), 'utf8');
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} traces: ${what}`);
  if (!ok) failures++;
}

/** `total`'s one executor in a dump: its uops as [name, offset or null]. */
function dumpedUops(file) {
  const d = JSON.parse(fs.readFileSync(file, 'utf8'));
  const code = d.code.find((c) => d.strings[c.qualname] === 'total');
  const [e] = code.executors;
  return e.uops.map((u) => [d.strings[u[0]], u[2] ?? null]);
}

const expected = { base: dumpedUops(args.base), head: dumpedUops(args.head) };
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(args.url);
  await page.waitForSelector('body[data-engine]', { timeout: 20000 });
  const inputs = page.locator('input[type=file]');
  await inputs.nth(0).setInputFiles(path.resolve(args.base));
  await inputs.nth(1).setInputFiles(path.resolve(args.head));
  await page.waitForFunction(() => document.querySelectorAll('.side-file').length >= 2 && document.querySelector('.overview'), null, { timeout: 60000 });
  await page.evaluate(() => { location.hash = '#tab=functions&fn=__main__%3Atotal'; });
  await page.waitForSelector('.fview[data-key="__main__:total"] .traces .trace', { timeout: 20000 });

  const shown = await page.evaluate(() => {
    const t = document.querySelector('.traces .trace');
    const column = (i) => [...t.querySelectorAll('tbody tr')].map((r) => r.children[i]).filter((td) => td.querySelector('.uop'))
      .map((td) => { const u = td.querySelector('.uop'); return [u.textContent, u.getAttribute('aria-label')]; });
    return {
      heading: t.querySelector('h4').textContent,
      why: t.querySelector('.trace-why')?.textContent ?? '',
      heads: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      base: column(0),
      head: column(1),
      marked: { removed: t.querySelectorAll('tr.t-removed, tr.t-replaced').length, added: t.querySelectorAll('tr.t-added, tr.t-replaced').length },
    };
  });
  check(shown.heading.includes('line 4') && shown.heading.includes('trace changed'), `the loop at line 4 is marked changed (${shown.heading})`);
  check(shown.why.includes('BINARY_OP_ADD_INT'), `with the diff's sentence (${shown.why})`);
  for (const side of ['base', 'head']) {
    const names = shown[side].map(([n]) => n);
    const want = expected[side].map(([n]) => n);
    check(JSON.stringify(names) === JSON.stringify(want), `${side}: the column is the dump's ${want.length} uops in order`);
    check(shown.heads.some((h) => h === `${side}: ${want.length} uops`), `${side}: its header counts them (${shown.heads.join(' | ')})`);
  }
  check(shown.marked.removed > 0 && shown.marked.added > 0, `where the traces differ, both sides are marked (${JSON.stringify(shown.marked)})`);

  // Each head uop from this code object links to its instruction: pick the first that differs.
  const k = await page.evaluate(() => {
    const cells = [...document.querySelectorAll('.traces .trace tbody tr')].map((r) => [r, r.children[1]]).filter(([, td]) => td.querySelector('.uop'));
    return cells.findIndex(([r, td]) => !r.matches('tr:not([class])') && td.querySelector('button.uop'));
  });
  check(k >= 0, 'a changed head uop is a link');
  if (k >= 0) {
    const [name, offset] = expected.head[k];
    const label = shown.head[k][1];
    const row = Number(/row (\d+)/.exec(label)?.[1]);
    await page.locator('.traces .trace tbody tr td:nth-child(2) .uop').nth(k).click();
    await page.waitForSelector(`.fview tr.insrow.selected-site[data-site="${row}"]`, { timeout: 10000 });
    const selected = await page.evaluate(() => {
      const r = document.querySelector('.fview tr.insrow.selected-site');
      const box = r.getBoundingClientRect();
      return { off: r.children[3]?.textContent.trim(), op: r.children[4]?.textContent.trim(), inView: box.bottom > 0 && box.top < innerHeight };
    });
    check(selected.off === String(offset), `${name} (head uop ${k}) selects the instruction at its offset ${offset} (row ${row}: ${selected.off} ${selected.op})`);
    check(selected.inView, 'and scrolls it into view');
    check((await page.evaluate(() => location.hash)).includes(`site=${row}`), 'the selection is in the URL');
  }
  await page.screenshot({ path: path.join(outDir, 'traces.png'), fullPage: true });

  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  for (const [width, height] of [[390, 844], [1280, 800]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      const result = await page.evaluate(() => window.axe.run({ include: [['.traces']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] }));
      const v = result.violations.map((x) => `${x.id}: ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      check(v.length === 0, `${width}x${height} ${scheme}: no axe violation in the traces${v.length ? ` (${v.join('; ')})` : ''}`);
    }
  }
  // The page's share link carries the executors: opened in a fresh page, `total` shows the
  // same trace.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('text=share link');
  await page.waitForSelector('.share-url', { timeout: 20000 });
  const link = await page.inputValue('.share-url');
  await page.keyboard.press('Escape');
  const opened = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  opened.on('pageerror', (e) => errors.push(String(e)));
  await opened.goto(link);
  console.log(`     link: ${link.length} characters, ${link.replace(/share=[^&]*/, 'share=…')}`);
  await opened.waitForFunction(() => document.querySelectorAll('.side-file').length >= 2, null, { timeout: 60000 });
  if (!(await opened.$('.fview[data-key="__main__:total"]'))) {
    await opened.evaluate(() => { location.hash += '&tab=functions&fn=__main__%3Atotal'; });
  }
  const reopened = await opened.waitForSelector('.fview[data-key="__main__:total"] .traces .trace', { timeout: 20000 }).then(() => opened.evaluate(() => {
    const t = document.querySelector('.traces .trace');
    return { heading: t.querySelector('h4').textContent, uops: t.querySelectorAll('.uop').length };
  })).catch(() => null);
  check(reopened !== null && reopened.heading === shown.heading && reopened.uops === shown.base.length + shown.head.length,
    `the page's share link shows the same trace (${JSON.stringify(reopened)})`);
  await opened.close();
  check(errors.length === 0, `no page errors${errors.length ? `: ${errors.join(' | ')}` : ''}`);
} finally {
  await browser.close();
}
process.exit(failures ? 1 : 0);
