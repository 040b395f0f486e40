// The hosted page under a sub-path, and `specdiff diff --link` links opened in it, in headless
// Chromium (playwright-core). Run by scripts/e2e.sh on a build made with
// `build-web.sh --public-url /specdiff/`, served under /specdiff/ on 127.0.0.1:
//
//   node tests/e2e/links.mjs --url http://127.0.0.1:PORT/specdiff/ --base B.json --head H.json
//                            --cases out/e2e/links.json [--out out/e2e]
//
// links.json: [{ python, link, report, dropped, left_out? }] — per interpreter (and for the
// dropped pair, once more with a --link-cap that leaves functions out: `left_out` is how many
// the CLI said), the CLI's link (made with --link URL) and the path of `specdiff diff --format
// json` of the same dumps. Checks: dropped files load; each CLI link shows the rows of the JSON
// report (functions, badges, specialized sites), the selected function's sites and
// explanations, and the sender's run-level numbers in the overview; a capped link shows the
// kept rows unchanged and says how many it leaves out; the page's own share link of the
// dropped pair opens the same view as the CLI's link of it; an old (s1.) link still opens and
// a newer one says so; a link of a program with hostile names (`hostile: true`) shows its
// markup, escapes and bidi override as text and runs nothing; no request leaves the page's
// origin.

import fs from 'node:fs';
import path from 'node:path';

import { expectedRows, launchChromium, parseArgs, root, shownRows } from './common.mjs';

const args = parseArgs();
const url = args.url;
const origin = new URL(url).origin;
const outDir = path.resolve(args.out ?? path.join(root, 'out/e2e'));
const cases = JSON.parse(fs.readFileSync(args.cases, 'utf8'));
const base = fs.readFileSync(args.base, 'latin1');
const head = fs.readFileSync(args.head, 'latin1');

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The selected function's marked sites (class and opnames) and explanations. */
async function functionView(page, key) {
  await page.waitForSelector(`.fview[data-key="${key}"] tr.insrow`, { timeout: 20000 });
  return page.$$eval('.fview tr.insrow.marked, .fview tr.explain-row', (els) => els.map((el) => el.textContent.replace(/\s+/g, ' ').trim()));
}

/** The overview's metrics: label → the numbers in its cells (base, head, or the fact). */
async function overviewNumbers(page) {
  await page.click('[data-tab=overview]');
  await page.waitForSelector('table.metrics tbody tr');
  return page.$$eval('table.metrics tbody tr', (els) => Object.fromEntries(els.map((tr) => [
    tr.querySelector('th').textContent.trim(),
    [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
  ])));
}

/** The sender's numbers as the overview must show them (integers without digit grouping). */
function expectedNumbers(report) {
  const s = report.summary;
  return {
    'code objects': [report.base.code_objects, report.head.code_objects],
    'specialized sites': [s.base.specialized, s.head.specialized],
    'specialization sites': [s.base.sites, s.head.sites],
    functions: [s.matched, s.changed, s.added, s.removed],
    regressions: [s.regressions],
  };
}
// Base and head cells (the Δ cell, when there is one, is left out), or the fact's one cell.
const numbersOf = (cells) => cells.slice(0, 2).join(' ').replace(/(\d),(\d)/g, '$1$2').match(/\d+/g)?.map(Number) ?? [];

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const offOrigin = [];
  context.on('request', (r) => { if (!r.url().startsWith(origin + '/') && !/^(blob|data):/.test(r.url())) offOrigin.push(r.url()); });
  const errors = [];
  const open = async (target) => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith(origin + '/') && !/^(blob|data):/.test(r.url())) offOrigin.push(r.url()); });
    await page.goto(target, { waitUntil: 'load' });
    await page.waitForSelector('body[data-engine]', { timeout: 20000 });
    return page;
  };

  // Files dropped on the page served under the sub-path.
  const page = await open(url);
  const dt = await page.evaluateHandle(([b, h]) => {
    const dt = new DataTransfer();
    for (const [name, text] of [['base.json', b], ['head.json', h]]) dt.items.add(new File([Uint8Array.from(text, (c) => c.charCodeAt(0))], name));
    return dt;
  }, [base, head]);
  await page.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await page.waitForSelector('.top-list', { timeout: 20000 });
  check((await page.textContent('.top-list')).includes('dot_sum'), `served under ${new URL(url).pathname}: dropped dumps show the diff`);
  const dropped = await shownRows(page);
  const key = '__main__:dot_sum';
  await page.click(`.frow[data-key="${key}"]`);
  const droppedView = await functionView(page, key);
  await page.click('text=share link');
  await page.waitForSelector('.share-url');
  const buttonLink = await page.inputValue('.share-url');
  check(buttonLink.startsWith(url + '#share=s4.') && buttonLink.includes('fn=__main__%3Adot_sum'), `the share button's link is under the sub-path, with the selection (${buttonLink.length} characters)`);
  await page.close();

  const fromButton = await open(buttonLink);
  const buttonView = await functionView(fromButton, key);
  const buttonRows = await shownRows(fromButton);
  // A reduced link keeps the functions whose specialization changed; those rows stay as they were.
  const kept = dropped.filter((r) => buttonRows.some((b) => b.key === r.key));
  check(buttonRows.length > 0 && same(buttonRows, kept) && same(buttonView, droppedView), `the button's link opens the dropped files' rows (${buttonRows.length} of ${dropped.length}) and function view`);
  await fromButton.close();

  // A version-1 link (made by Chromium before links carried the sender's numbers; see
  // crates/core/tests/fixtures/share/README.md) still opens, and a newer version says so.
  const v1 = fs.readFileSync(path.join(root, 'crates/core/tests/fixtures/share/demo-chromium.link'), 'utf8').trim();
  const old = await open(`${url}#share=${v1}&tab=functions`);
  const oldRows = await shownRows(old);
  check(oldRows.some((r) => r.key === key), `an old s1. link still opens (${oldRows.length} changed rows)`);
  await old.close();
  // A version-3 link (dumps as dump JSON, before packed dumps) of the demo, trimmed.
  const v3 = fs.readFileSync(path.join(root, 'crates/core/tests/fixtures/share/demo-trimmed-v3.link'), 'utf8').trim();
  const old3 = await open(`${url}#share=${v3}&tab=functions`);
  const old3Rows = await shownRows(old3);
  check(old3Rows.some((r) => r.key === key), `an s3. link still opens (${old3Rows.length} changed rows)`);
  await old3.close();
  const newer = await open(`${url}#share=s5.AAAA`);
  await newer.waitForFunction(() => document.body.textContent.includes('made by a newer specdiff'), null, { timeout: 20000 }).catch(() => {});
  check((await newer.textContent('body')).includes('made by a newer specdiff'), 'a link of a newer version says it was made by a newer specdiff');
  await newer.close();

  for (const c of cases) {
    const report = JSON.parse(fs.readFileSync(c.report, 'utf8'));
    if (c.hostile) {
      // Names, paths and source carrying markup, escapes and a bidi override: shown as text,
      // nothing added to the page, nothing run.
      const hostile = await open(`${c.link}&tab=functions`);
      await hostile.waitForSelector('.frow:not(.unchanged)', { timeout: 20000 });
      const evil = hostile.locator('.frow:not(.unchanged)', { hasText: 'total<img' });
      check(await evil.count() === 1, `the hostile link lists the hostile function by its name as text (${await evil.count()})`);
      await evil.first().click();
      await hostile.waitForSelector('.fview tr.insrow', { timeout: 20000 });
      const facts = await hostile.evaluate(() => ({
        pwned: window.__pwned ?? null,
        injected: document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]').length,
        text: document.body.innerText,
      }));
      check(facts.pwned === null && facts.injected === 0, `the hostile link runs no script and adds no element (pwned ${facts.pwned}, injected ${facts.injected})`);
      check(facts.text.includes('<img src=x onerror="window.__pwned=1">') && facts.text.includes('# <img src=x'), 'its markup is shown as text, in the function list and in the source line');
      check(!/[\u202e\u001b\u0007]/.test(facts.text) && facts.text.includes('\\u202etxt.exe') && facts.text.includes('\\x1b[2J'), 'its bidi override, ESC and BEL are shown as \\u202e, \\x1b, \\x07, not applied');
      await hostile.screenshot({ path: path.join(outDir, 'link-hostile.png') });
      await hostile.close();
      continue;
    }
    if (c.left_out !== undefined) {
      // The capped link: the sender's numbers, the kept rows as they are, the omission said.
      const capped = await open(c.link);
      const numbers = await overviewNumbers(capped);
      const want = expectedNumbers(report);
      const got = Object.fromEntries(Object.keys(want).map((k) => [k, numbersOf(numbers[k] ?? [])]));
      check(same(got, want), `the capped link's overview shows the sender's numbers${same(got, want) ? '' : `\n     shown ${JSON.stringify(got)}\n     want  ${JSON.stringify(want)}`}`);
      const said = await capped.textContent('body');
      check(c.left_out > 0 && said.includes(`leaves out ${c.left_out} function`) && said.includes('whose specialization changed'), `the capped link says it leaves out ${c.left_out} function(s) whose specialization changed, as the CLI did`);
      const rows = await shownRows(capped);
      const all = expectedRows(report, true);
      const kept = all.filter((r) => rows.some((x) => x.key === r.key));
      check(same(rows, kept) && rows.length === all.length - c.left_out, `the capped link shows ${rows.length} of ${all.length} changed rows, each as the JSON report has it`);
      await capped.close();
      continue;
    }
    check(c.link.startsWith(url + '#share=s4.'), `CPython ${c.python}${c.dropped ? ' (dropped pair)' : ''}: the CLI's link points at the page (${c.link.length} characters)`);
    // The CLI's link, with the tab and function the button's link carries.
    // The function to select: dot_sum for the demo, the report's first for other pairs (`fn`).
    const fnKey = c.fn ?? key;
    const shared = await open(`${c.link}&tab=functions&fn=${encodeURIComponent(fnKey)}`);
    const view = await functionView(shared, fnKey);
    // Rows of matched functions (a whole link also lists the functions only one run has).
    const matched = new Set(report.functions.map((f) => `${f.module}:${f.qualname}`));
    const rows = (await shownRows(shared)).filter((r) => matched.has(r.key));
    const reduced = await shared.evaluate(() => document.body.textContent.includes('share link: '));
    const want = expectedRows(report, reduced);
    check(same(rows, want), `CPython ${c.python}: the ${reduced ? 'reduced ' : ''}link shows the JSON report's rows (${rows.map((r) => r.key).join(', ')})${same(rows, want) ? '' : `\n     shown ${JSON.stringify(rows)}\n     want  ${JSON.stringify(want)}`}`);
    const fn = report.functions.find((f) => `${f.module}:${f.qualname}` === fnKey);
    const explanations = fn.changes.map((ch) => ch.explanation).filter(Boolean);
    const shownExplanations = view.filter((t) => t.startsWith('↳ ')).map((t) => t.slice(2));
    check(same(shownExplanations.sort(), [...explanations].sort()), `CPython ${c.python}: ${fnKey}'s explanations are the report's (${shownExplanations.length})`);
    const numbers = await overviewNumbers(shared);
    const wantNumbers = expectedNumbers(report);
    const gotNumbers = Object.fromEntries(Object.keys(wantNumbers).map((k) => [k, numbersOf(numbers[k] ?? [])]));
    check(same(gotNumbers, wantNumbers), `CPython ${c.python}: the overview shows the sender's run-level numbers${same(gotNumbers, wantNumbers) ? '' : `\n     shown ${JSON.stringify(gotNumbers)}\n     want  ${JSON.stringify(wantNumbers)}`}`);
    const label = c.dropped ? 'dropped' : c.python;
    if (c.dropped) {
      check(same(view, buttonView) && same(rows, buttonRows), `the CLI's link of the dropped dumps opens the same view as the page's share button${same(view, buttonView) && same(rows, buttonRows) ? '' : `\n     rows ${JSON.stringify(rows)}\n     vs   ${JSON.stringify(buttonRows)}\n     view ${JSON.stringify(view)}\n     vs   ${JSON.stringify(buttonView)}`}`);
    }
    await shared.screenshot({ path: path.join(outDir, `link-${label}.png`) });
    await shared.close();
  }
  check(offOrigin.length === 0, `no request leaves ${origin} (${offOrigin.join(', ') || 'none'})`);
  check(errors.length === 0, `no console errors (${errors.join(' | ') || 'none'})`);
} finally {
  await browser.close();
}
console.log(failures ? `links: ${failures} check(s) failed` : 'links: all checks passed');
process.exit(failures ? 1 : 0);
