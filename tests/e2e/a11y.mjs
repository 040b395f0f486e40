// Accessibility and layout of the page (issue 33) in headless Chromium: for each pair of dumps
// (picked with the panes' file inputs, as big_pair.mjs does), in each state a reader meets
// (welcome, overview, functions tab, a function view with changed rows, stats, help dialog,
// share dialog), at 390×844 and 1280×800, in light and dark (prefers-color-scheme):
//   - axe-core (from .tools/npm, WCAG 2.0/2.1 A and AA rules) run in the page: 0 violations;
//   - nothing clipped: no element that hides its overflow (overflow hidden/clip, ellipsis) with
//     text cut (the function list's names included: rows grow past two lines to fit them; the
//     big pair's longest `<locals>` names are checked), no listing cell whose content is wider than the cell, no chart label past the
//     chart's edge, and the page itself does not scroll sideways;
//   - the family chart's labels and values are drawn at 10 px or more, within the chart;
//   - the listing's header row stays in sight while a long listing is scrolled;
//   - a screenshot per state, size and theme in ${CARGO_TARGET_DIR:-target}/e2e-screenshots/.
// One browser and one page per pair: sizes and themes change in place.
//
//   node tests/e2e/a11y.mjs --url http://127.0.0.1:PORT/ --base B.json --head H.json \
//        [--big-base B2.json --big-head H2.json]
//
// Run by scripts/e2e.sh with the demo pair and the benchmark's pair (bench.mjs's dumps).
// Exits non-zero after printing every violation and clipped element.

import fs from 'node:fs';
import path from 'node:path';

import { launchChromium, parseArgs, root } from './common.mjs';

const args = parseArgs();
const url = args.url ?? 'http://127.0.0.1:8080/';
const axeSource = fs.readFileSync(path.join(root, '.tools/npm/node_modules/axe-core/axe.min.js'), 'utf8');
const shotDir = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target', 'e2e-screenshots');
fs.mkdirSync(shotDir, { recursive: true });

// `long`: a function whose listing, every fold open, is taller than the window (for the
// sticky header's check): the demo's main, and the stdlib's regex parser in the big pair.
const pairs = [{ name: 'demo', base: args.base, head: args.head, long: '__main__:main' }];
if (args['big-base']) pairs.push({ name: 'big', base: args['big-base'], head: args['big-head'], long: 're._parser:_parse' });
const sizes = [{ name: '390x844', width: 390, height: 844 }, { name: '1280x800', width: 1280, height: 800 }];
const themes = ['light', 'dark'];
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let failures = 0;
let checks = 0;

/** Everything on the page that is cut, in words (runs in the page). */
function clippedInPage() {
  const name = (el) => el.tagName.toLowerCase() + (el.classList.length ? '.' + [...el.classList].join('.') : '');
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) parts.unshift(name(e));
    return parts.join(' > ');
  };
  const text = (el) => (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 70);
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > innerWidth + 1) out.push(`the page scrolls sideways: ${doc.scrollWidth} px wide in a ${innerWidth} px window`);
  for (const el of document.body.querySelectorAll('*')) {
    if (el instanceof SVGElement || !el.checkVisibility() || !text(el)) continue;
    const cs = getComputedStyle(el);
    const hides = (o) => o === 'hidden' || o === 'clip';
    const cell = el.matches('.listing td');
    if ((hides(cs.overflowX) || cell) && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${where(el)}: ${el.scrollWidth} px of content in ${el.clientWidth} px ("${text(el)}")`);
    } else if (hides(cs.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      out.push(`${where(el)}: ${el.scrollHeight} px high content in ${el.clientHeight} px ("${text(el)}")`);
    }
  }
  for (const svg of document.querySelectorAll('svg[viewBox]')) {
    if (!svg.checkVisibility()) continue;
    const vb = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5) {
        out.push(`${where(t)}: "${text(t)}" spans x ${b.x.toFixed(1)}–${(b.x + b.width).toFixed(1)}, the chart ${vb.x}–${vb.x + vb.width}`);
      }
    }
  }
  return out;
}

/** axe-core's violations in the page, one readable block each. */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }), AXE_TAGS);
  return result.violations.map((v) => [
    `${v.id} (${v.impact}): ${v.help} — ${v.nodes.length} node(s)`,
    ...v.nodes.slice(0, 8).map((n) => `      ${n.target.join(' ')}: ${(n.failureSummary || '').replace(/\s+/g, ' ').replace(/^Fix (any|all) of the following: /, '').slice(0, 220)}`),
    ...(v.nodes.length > 8 ? [`      … and ${v.nodes.length - 8} more`] : []),
  ].join('\n'));
}

/** Checks the page as it is now at every size and theme; `ready` waits for the state. */
async function checkState(page, pair, state, ready) {
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme });
      if (ready) await ready();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const label = `${pair} · ${state} · ${size.name} · ${theme}`;
      const violations = await axeViolations(page);
      const clipped = await page.evaluate(clippedInPage);
      await page.screenshot({ path: path.join(shotDir, `${pair}-${state}-${size.name}-${theme}.png`), fullPage: size.width < 600 });
      checks++;
      if (violations.length === 0 && clipped.length === 0) {
        console.log(`ok   ${label}: 0 axe violations, nothing clipped`);
        continue;
      }
      failures++;
      console.log(`FAIL ${label}: ${violations.length} axe violation(s), ${clipped.length} clipped`);
      for (const v of violations) console.log(`   axe ${v}`);
      for (const c of clipped) console.log(`   clipped ${c}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The family chart's text is readable at both sizes (issue 33): every family label and value
 * is drawn at 10 px or more (its font size times the drawing's scale: an SVG scaled down to a
 * phone's width drew its 11.5 px labels at ~6 px), and lies within the chart's box.
 */
async function checkChartText(page, pair) {
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const m = await page.evaluate(() => {
      const chart = document.querySelector('.family-chart');
      if (!chart) return null;
      const box = chart.getBoundingClientRect();
      const texts = [...chart.querySelectorAll('.fam-label, .bar-val')];
      const px = (el) => parseFloat(getComputedStyle(el).fontSize) * (el.ownerSVGElement ? el.ownerSVGElement.getScreenCTM().a : 1);
      const smallest = texts.reduce((a, el) => (px(el) < a.px ? { px: px(el), text: el.textContent } : a), { px: Infinity, text: '' });
      const outside = texts.filter((el) => { const r = el.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; }).map((el) => el.textContent);
      return { n: texts.length, smallest, outside };
    });
    const ok = !!m && m.n > 0 && m.smallest.px >= 10 && m.outside.length === 0;
    checks++;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${pair} · ${size.name}: the family chart's ${m?.n} texts are drawn at 10 px or more (smallest ${m?.smallest.px.toFixed(1)} px: "${m?.smallest.text}")`
      + ` and lie within the chart${m?.outside.length ? ` (not: ${m.outside.slice(0, 4).join(', ')})` : ''}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The listing's header row stays in sight while a long listing is scrolled (issue 33): with
 * every fold of `key` open, the listing's top brought into sight and the mouse wheel turned
 * over it, at each size, the header's top is at or below the top of the visible area (the
 * view beside the list; the window on a phone), its bottom above the window's, and the first
 * row has gone up under it. On main's stylesheet the wheel scrolled the view (or the page),
 * header and all: the listing's own region only scrolled sideways.
 */
async function checkStickyHeader(page, pair, key) {
  const open = Array.from({ length: 80 }, (_, i) => i).join('.');
  await page.evaluate(([k, o]) => { location.hash = `#tab=functions&fn=${encodeURIComponent(k)}&open=${o}`; }, [key, open]);
  const shown = await page.waitForSelector(`.fview[data-key="${key}"] .listing tbody tr`, { timeout: 20000 }).catch(() => null);
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const start = shown && (await page.evaluate(() => {
      const w = document.querySelector('.listing-wrap');
      w.scrollTop = 0;
      w.scrollIntoView({ block: 'start' });
      const r = w.getBoundingClientRect();
      return { x: r.x, y: r.y, table: w.querySelector('table').offsetHeight };
    }));
    let m = null;
    if (start) {
      await page.mouse.move(start.x + 40, Math.max(start.y, 0) + 60);
      for (let i = 0; i < 8; i++) {
        await page.mouse.wheel(0, 300);
        await page.waitForTimeout(60);
      }
      await page.waitForTimeout(400);
      m = await page.evaluate(() => {
        const w = document.querySelector('.listing-wrap');
        // The visible area's top: the lowest top of the boxes around the listing that scroll.
        let top = 0;
        for (let e = w.parentElement; e; e = e.parentElement) if (/auto|scroll/.test(getComputedStyle(e).overflowY)) top = Math.max(top, e.getBoundingClientRect().top);
        const th = w.querySelector('thead th').getBoundingClientRect();
        return { top: Math.round(top), th: Math.round(th.top), bottom: Math.round(th.bottom), first: Math.round(w.querySelector('tbody tr').getBoundingClientRect().top) };
      });
      await page.screenshot({ path: path.join(shotDir, `${pair}-sticky-header-${size.name}.png`) });
    }
    const ok = !!m && start.table > size.height && m.th >= m.top - 1 && m.bottom <= size.height && m.first < m.th;
    checks++;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${pair} · ${size.name}: the listing's header stays in sight while ${key}'s listing (${start?.table} px) is scrolled: `
      + (m ? `header at ${m.th}–${m.bottom} px, visible from ${m.top} px, first row at ${m.first} px` : 'no listing'));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const browser = await launchChromium();
const started = Date.now();
try {
  for (const [i, pair] of pairs.entries()) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForSelector('body[data-engine]', { timeout: 20000 });
    if (i === 0) await checkState(page, 'all', 'welcome', () => page.waitForSelector('.welcome'));

    const inputs = page.locator('input[type=file]');
    await inputs.nth(0).setInputFiles(path.resolve(pair.base));
    await inputs.nth(1).setInputFiles(path.resolve(pair.head));
    await page.waitForFunction(() => document.querySelector('.top-list, .overview .card p.muted') && document.querySelectorAll('.side-file').length >= 2,
      null, { timeout: 120000, polling: 100 });
    await checkState(page, pair.name, 'overview');
    await checkChartText(page, pair.name);

    // The worst regression's view (the first of the overview's ranked list; without
    // regressions, the list's first changed function), opened by the URL.
    const ranked = await page.$('.top-list [data-key]');
    const worstRanked = ranked && (await ranked.getAttribute('data-key'));
    await page.click('[data-tab=functions]');
    await page.waitForSelector('.flist');
    await checkState(page, pair.name, 'functions');
    if (pair.name === 'big') {
      // Long names (issue 33): the big pair's `<locals>` functions, every one shown and sorted
      // by name, start with names and locations of 70–98 characters (`FileFinder.path_hook.
      // <locals>.path_hook_for_FileFinder  <frozen importlib._bootstrap_external>:1695`), which
      // two lines at 390 px cut. Each row in sight must show all of its text, and at least one
      // must have grown past two lines to do it.
      await page.fill('.flist .search', '<locals>');
      await page.check('.flist .toggle input');
      await page.selectOption('.flist .sort', 'name');
      await page.waitForFunction(() => [...document.querySelectorAll('.frow .qual')].every((q) => q.textContent.includes('<locals>')));
      await checkState(page, pair.name, 'long-names');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const tallest = await page.evaluate(() => Math.max(...[...document.querySelectorAll('.frow')].map((r) => r.offsetHeight)));
      checks++;
      if (!(tallest > 42)) failures++;
      console.log(`${tallest > 42 ? 'ok  ' : 'FAIL'} ${pair.name}: at 390 px, rows with long names grow past two lines (the tallest is ${tallest} px)`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.fill('.flist .search', '');
      await page.uncheck('.flist .toggle input');
      await page.selectOption('.flist .sort', 'impact');
    }
    const worst = worstRanked ?? (await page.getAttribute('.frow:not(.unchanged)', 'data-key'));
    await page.evaluate((key) => { location.hash = `#tab=functions&fn=${encodeURIComponent(key)}`; }, worst);
    await page.waitForSelector('.fview tr.insrow.marked', { timeout: 20000 });
    // The legend says, beside the listing, what each kind on screen and each column word means.
    const legend = await page.evaluate(() => {
      const kinds = (sel) => [...document.querySelectorAll(sel)].map((b) => b.dataset.class).sort().join(' ');
      const terms = [...document.querySelectorAll('.fview .legend-bar code')].map((c) => c.textContent);
      return { shown: kinds('.fview .fcounts .badge'), explained: kinds('.fview .legend-bar .badge'), terms };
    });
    const legendOk = legend.shown === legend.explained && ['off', 'ctr', 'N miss', 'N fail', '↻'].every((t) => legend.terms.includes(t));
    checks++;
    if (!legendOk) failures++;
    console.log(`${legendOk ? 'ok  ' : 'FAIL'} ${pair.name}: the function view's legend explains its kinds (${legend.explained}) and columns (${legend.terms.join(', ')})`);
    await checkState(page, pair.name, 'function');
    await checkStickyHeader(page, pair.name, pair.long);

    await page.click('[data-tab=stats]');
    await page.waitForFunction(() => document.querySelector('.stats') && !document.querySelector('.stats').textContent.includes('loading…'));
    await checkState(page, pair.name, 'stats');

    await page.click('[data-tab=overview]');
    await page.click('.actions button[title^="keyboard"]');
    await page.waitForSelector('.modal[aria-label=help]');
    await checkState(page, pair.name, 'help');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.modal', { state: 'detached' });

    await page.click('text=share link');
    await page.waitForSelector('.share-url', { timeout: 20000 });
    await checkState(page, pair.name, 'share');
    await page.keyboard.press('Escape');

    if (errors.length) {
      failures++;
      console.log(`FAIL ${pair.name}: page errors: ${errors.join(' | ')}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`a11y: ${checks - failures} of ${checks} states passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${shotDir}`);
process.exit(failures ? 1 : 0);
