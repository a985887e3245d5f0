// tests/browser/check_report.mjs: opens an ordo report.html in headless chromium (Debian's, never
// a downloaded one) and checks what a reader relies on:
//   1. no console error and no uncaught exception;
//   2. no request other than the page's own file:// URL, data: and blob: URLs;
//   3. the overview heatmap has one row per series row and a cell per column, with each cell's text,
//      and every band of two or more tasks fits the page's width, also after the window narrows
//      to 900 px (the bands are laid out again); --min-bands N: and it has at least N bands;
//   4. for every task (chosen in turn): its charts exist (loss, acc, lengths, and distance when the
//      data has one), each has a dataset with a point and coloured pixels of a visible dataset in
//      its plot area, its legend sits beside the plot with no two entries overlapping, and no two
//      x tick labels overlap;
//   5. a real mouse click on one series' legend entry hides that series in every chart of every
//      task and no other series; a second click shows it everywhere again;
//   6. the study's preamble is there paragraph for paragraph, its `code` spans drawn as code (no
//      backtick shown);
//   7. a task of a learning-rate sweep shows its "Learning rates" and "The literature's view"
//      tables as the data has them; --rates: every task has them.
// Prints one line per failed check and exits 1 on any failure; else prints a summary and exits 0.
//
//   node tests/browser/check_report.mjs PATH/report.html [--screenshot OUT.png]
//
// Chromium: $ORDO_CHROMIUM, else /usr/bin/chromium. The page's test hook is window.ordoReport
// (see report/report_template.html).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {chromium} from 'playwright-core';

const argv = process.argv.slice(2);
let reportPath = null, screenshot = null, minBands = 0, expectRates = false;
for (let i = 0; i < argv.length; ++i) {
  if (argv[i] === '--screenshot' && i + 1 < argv.length) screenshot = argv[++i];
  else if (argv[i] === '--min-bands' && i + 1 < argv.length) minBands = Number(argv[++i]);
  else if (argv[i] === '--rates') expectRates = true;
  else if (!argv[i].startsWith('--') && reportPath === null) reportPath = argv[i];
  else { console.error(`check_report: unexpected argument ${argv[i]}`); process.exit(2); }
}
if (!reportPath) {
  console.error('usage: node check_report.mjs PATH/report.html [--screenshot OUT.png] [--min-bands N] [--rates]');
  process.exit(2);
}
if (!fs.existsSync(reportPath)) { console.error(`check_report: ${reportPath} does not exist`); process.exit(2); }
const executablePath = process.env.ORDO_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(executablePath)) { console.error(`check_report: no chromium at ${executablePath}`); process.exit(2); }

const pageUrl = pathToFileURL(path.resolve(reportPath)).href;
const failures = [];
let checks = 0;
function check(ok, message) {
  ++checks;
  if (!ok) { failures.push(message); console.log(`FAIL: ${message}`); }
  return ok;
}

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo_chromium_'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath, headless: true,
  viewport: {width: 1400, height: 900}, deviceScaleFactor: 1,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
try {
  const page = context.pages()[0] || await context.newPage();
  const consoleErrors = [], pageErrors = [], requests = [];
  page.on('console', msg => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('pageerror', err => pageErrors.push(String(err && err.stack || err)));
  // Every request is recorded; anything but the page itself, data: and blob: is refused (and reported).
  await context.route('**/*', route => {
    const url = route.request().url();
    requests.push(url);
    const allowed = url === pageUrl || url.startsWith('data:') || url.startsWith('blob:');
    return allowed ? route.continue() : route.abort('blockedbyclient');
  });
  context.on('request', req => { if (!requests.includes(req.url())) requests.push(req.url()); });

  await page.goto(pageUrl, {waitUntil: 'load'});
  const ready = await page.waitForFunction(() => window.ordoReport && window.ordoReport.ready === true, null, {timeout: 10000})
    .then(() => true, () => false);
  check(ready, 'the page never set window.ordoReport.ready (it failed to build; see the errors)');

  const nextFrame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));

  if (ready) {
    const data = await page.evaluate(() => JSON.parse(document.getElementById('ordo-data').textContent));

    // ---- the preamble ----
    // The study's description, paragraph for paragraph, its Markdown code spans drawn as code:
    // no backtick reaches the reader.
    if (typeof data.preamble === 'string' && data.preamble.trim()) {
      const paras = await page.evaluate(() => [...document.querySelectorAll('p.preamble')].map(p => ({
        text: p.textContent, codes: p.querySelectorAll('code').length})));
      const expected = data.preamble.split(/\n\s*\n/).filter(p => p.trim());
      check(paras.length === expected.length, `the preamble has ${paras.length} paragraph(s), the data ${expected.length}`);
      paras.forEach((p, k) => {
        const ticks = (expected[k] || '').split('`').length - 1;
        if (ticks % 2 === 1) return;  // an unpaired backtick: the paragraph is drawn as plain text, on purpose
        check(!p.text.includes('`'), `preamble paragraph ${k + 1} shows a backtick: ${p.text.slice(0, 80)}`);
        check(p.codes === ticks / 2, `preamble paragraph ${k + 1} has ${p.codes} code span(s), its text ${ticks / 2}`);
      });
    }

    // ---- the overview heatmap ----
    // One table per band of whole tasks (at most 15 columns, or one task): a series' cells are
    // its row in every band, in order.
    const readBands = () => page.evaluate(() => {
      const box = document.getElementById('ordo-overview');
      if (!box) return null;
      return [...box.querySelectorAll('table')].map(t => ({
        tasks: [...t.tHead.rows[0].cells].filter(c => c.classList.contains('task-group')).map(c => c.textContent),
        rows: [...t.tBodies[0].rows].map(r => [...r.cells].filter(c => c.tagName === 'TD').map(c => c.textContent)),
        width: t.parentElement.scrollWidth, room: t.parentElement.clientWidth,  // the band's .heat-wrap
      }));
    });
    const checkBands = (bands, where) => (bands || []).forEach((b, k) => {
      const cols = b.rows.length ? b.rows[0].length : 0;
      check(cols <= 15 || b.tasks.length === 1, `${where}overview band ${k + 1} has ${cols} columns of ${b.tasks.length} tasks; a band holds at most 15, or one task`);
      check(b.width <= b.room || b.tasks.length === 1,
            `${where}overview band ${k + 1} (${b.tasks.join(', ')}) is ${b.width} px wide, the page holds ${b.room}; only a band of one task may scroll sideways`);
    });
    const bands = await readBands();
    checkBands(bands, '');
    if (minBands > 0) check(bands && bands.length >= minBands, `the overview has ${bands ? bands.length : 0} band(s), expected at least ${minBands}`);
    const heat = bands && bands.length ? bands[0].rows.map((_, i) => bands.flatMap(b => b.rows[i] || [])) : null;
    // a narrower window re-bands the overview: still every task, every band within the page
    await page.setViewportSize({width: 900, height: 900});
    await nextFrame(); await nextFrame();
    const narrow = await readBands();
    checkBands(narrow, 'at 900 px, ');
    if (bands && narrow) {
      check(narrow.flatMap(b => b.tasks).join() === bands.flatMap(b => b.tasks).join(),
            `at 900 px the overview shows the tasks ${narrow.flatMap(b => b.tasks).join(', ')}, at 1400 px ${bands.flatMap(b => b.tasks).join(', ')}`);
    }
    await page.setViewportSize({width: 1400, height: 900});
    await nextFrame(); await nextFrame();
    if (check(heat !== null, 'the overview heatmap (div#ordo-overview, one table per band) is missing')) {
      const rows = data.overview.rows, cols = data.overview.columns.length;
      check(heat.length === rows.length, `the overview has ${heat.length} rows, the data ${rows.length}`);
      heat.forEach((cells, i) => {
        if (!check(cells.length === cols, `overview row ${i + 1} has ${cells.length} cells, the data ${cols} columns`)) return;
        const want = rows[i] && rows[i].cells;
        (want || []).forEach((c, j) => {
          const text = c && c.not_learned ? 'not learned' : c && c.text;  // a cell no seed learned: greyed, no number
          if (c) check(cells[j] === text, `overview row ${rows[i].label} column ${j + 1} shows "${cells[j]}", not "${text}"`);
        });
      });
    }

    // ---- every task's charts ----
    const taskNames = await page.evaluate(() => window.ordoReport.tasks());
    check(taskNames.length === data.tasks.length, `the page offers ${taskNames.length} tasks, the data has ${data.tasks.length}`);
    for (const task of data.tasks) {
      const shown = await page.evaluate(name => window.ordoReport.showTask(name), task.task);
      if (!check(shown, `showTask(${task.task}) failed`)) continue;
      await nextFrame();
      const found = await page.evaluate(name => {
        const hexRgb = h => { const m = /^#([0-9a-f]{6})$/i.exec(h || ''); const v = m ? parseInt(m[1], 16) : 0; return [v >> 16, (v >> 8) & 255, v & 255]; };
        return window.ordoReport.charts().filter(c => c.canvas.dataset.task === name).map(c => {
          const kind = c.canvas.dataset.kind;
          const visible = c.data.datasets.map((d, i) => ({i, d})).filter(({i}) => c.isDatasetVisible(i));
          const withPoints = visible.filter(({d}) => d.data.some(p => p && Number.isFinite(p.y)));
          // pixels of the plot area drawn (opaque) in a visible dataset's colour
          const colours = visible.map(({d}) => hexRgb(d.borderColor));
          const a = c.chartArea, dpr = c.currentDevicePixelRatio || 1;
          let coloured = 0;
          const w = Math.floor((a.right - a.left) * dpr), h = Math.floor((a.bottom - a.top) * dpr);
          if (w > 0 && h > 0) {
            const px = c.ctx.getImageData(Math.floor(a.left * dpr), Math.floor(a.top * dpr), w, h).data;
            for (let k = 0; k < px.length; k += 4) {
              if (px[k + 3] < 200) continue;
              if (colours.some(([r, g, b]) => Math.abs(px[k] - r) + Math.abs(px[k + 1] - g) + Math.abs(px[k + 2] - b) < 40)) ++coloured;
            }
          }
          // legend: beside the plot, entries inside the canvas and not overlapping
          const boxes = (c.legend && c.legend.legendHitBoxes) || [];
          let overlap = null;
          for (let p = 0; p < boxes.length && !overlap; ++p) for (let q = p + 1; q < boxes.length; ++q) {
            const A = boxes[p], B = boxes[q];
            if (A.left < B.left + B.width && B.left < A.left + A.width && A.top < B.top + B.height && B.top < A.top + A.height) {
              overlap = [c.legend.legendItems[p].text, c.legend.legendItems[q].text]; break;
            }
          }
          const outside = boxes.filter(b => b.left < 0 || b.top < 0 || b.left + b.width > c.width + 0.5 || b.top + b.height > c.height + 0.5).length;
          // x tick labels: measured with the scale's own font, centred on their ticks (rotation 0)
          let tickClash = null;
          const x = c.scales.x;
          if (x && x.ticks.length > 1) {
            c.ctx.save();
            c.ctx.font = Chart.helpers.toFont(x.options.ticks.font).string;
            const spans = x.ticks.map((t, i) => {
              const label = [].concat(t.label).filter(s => s !== '' && s != null);  // (a label may be several lines)
              const width = Math.max(0, ...label.map(s => c.ctx.measureText(String(s)).width));
              const px = x.getPixelForTick(i);
              return {text: label.join(' '), left: px - width / 2, right: px + width / 2, width};
            }).filter(s => s.width > 0).sort((p, q) => p.left - q.left);
            c.ctx.restore();
            for (let i = 1; i < spans.length && !tickClash; ++i) {
              if (spans[i].left < spans[i - 1].right - 0.5) tickClash = [spans[i - 1].text, spans[i].text];
            }
          }
          return {kind, datasets: c.data.datasets.length, withPoints: withPoints.length, coloured,
                  width: c.width, height: c.height, legendPosition: c.options.plugins.legend.position,
                  legendDisplay: c.options.plugins.legend.display !== false, overlap, outside, tickClash,
                  rotation: x ? x.labelRotation : 0};
        });
      }, task.task);
      // the task line gives the runs per cell, a range where cells differ (--kept-seeds)
      if (Number.isFinite(task.seeds)) {
        const meta = await page.evaluate(name => {
          const p = document.querySelector(`section.task[data-task="${CSS.escape(name)}"] p.task-meta`);
          return p ? p.textContent : '';
        }, task.task);
        const want = Number.isFinite(task.fewest_seeds) && task.fewest_seeds < task.seeds
          ? `${task.fewest_seeds}–${task.seeds} seeds per cell` : `${task.seeds} seed${task.seeds === 1 ? '' : 's'}`;
        check(meta.includes(want), `task ${task.task}: its line "${meta}" does not say "${want}"`);
      }
      const kinds = found.map(f => f.kind).sort().join(',');
      const want = ['acc', 'lengths', 'loss'].concat(task.distance ? ['distance'] : []).sort().join(',');
      check(kinds === want, `task ${task.task}: charts ${kinds || '(none)'}, expected ${want}`);
      // a learning-rate sweep: the chosen rates and the literature's view, as the data has them
      if (expectRates) check(task.rates && task.literature, `task ${task.task}: the data has no learning-rate tables`);
      for (const [key, title] of [['rates', 'Learning rates'], ['literature', "The literature's view: best of every seed and rate"]]) {
        if (!task[key]) continue;
        const shownTable = await page.evaluate(([name, title]) => {
          const sec = document.querySelector(`section.task[data-task="${name}"]`);
          const h = sec && [...sec.querySelectorAll('h3')].find(e => e.textContent === title);
          let next = h && h.nextElementSibling;
          if (next && next.tagName === 'P') next = next.nextElementSibling;  // the note under the heading
          const table = next && next.querySelector('table');
          if (!table || !h.offsetParent) return null;
          return [[...table.tHead.rows[0].cells].map(c => c.textContent),
                  ...[...table.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent))];
        }, [task.task, title]);
        if (check(shownTable !== null, `task ${task.task}: no visible "${title}" table`)) {
          const want = [task[key].header, ...task[key].rows];
          check(JSON.stringify(shownTable) === JSON.stringify(want),
                `task ${task.task}: the "${title}" table shows ${JSON.stringify(shownTable)}, the data ${JSON.stringify(want)}`);
        }
      }
      for (const f of found) {
        const name = `task ${task.task}, ${f.kind} chart`;
        check(f.width > 0 && f.height > 0, `${name}: canvas is ${f.width}x${f.height}`);
        check(f.withPoints > 0, `${name}: no visible dataset with a point (${f.datasets} datasets)`);
        check(f.coloured >= 20, `${name}: blank (${f.coloured} pixels of a dataset colour in the plot area)`);
        check(f.legendDisplay && f.legendPosition === 'right', `${name}: legend is not beside the plot (position ${f.legendPosition})`);
        check(!f.overlap, `${name}: legend entries overlap: ${f.overlap && f.overlap.join(' / ')}`);
        check(f.outside === 0, `${name}: ${f.outside} legend entries lie outside the canvas`);
        check(!f.tickClash, `${name}: x tick labels overlap: ${f.tickClash && f.tickClash.join(' / ')}`);
        check(f.rotation === 0, `${name}: x tick labels are rotated ${f.rotation} degrees`);
      }
    }

    // ---- a legend click hides the series everywhere, a second one shows it again ----
    const first = data.tasks[0].task;
    await page.evaluate(name => window.ordoReport.showTask(name), first);
    await nextFrame();
    // the series to click: the label found in the most charts (ties: the earlier legend entry)
    const target = await page.evaluate(name => {
      const all = window.ordoReport.charts();
      // a chart with 2 or more entries, so that the others are seen to stay; a study of one series
      // has only one-entry legends, and hiding that one everywhere is still the thing to check
      const here = all.filter(c => c.canvas.dataset.task === name && c.legend && c.legend.legendItems.length > 0);
      const chart = here.find(c => c.legend.legendItems.length > 1) || here[0];
      if (!chart) return null;
      const items = chart.legend.legendItems;
      let best = 0, bestCount = -1;
      items.forEach((it, k) => {
        const n = all.filter(c => c.data.datasets.some(d => d.label === it.text)).length;
        if (n > bestCount) { best = k; bestCount = n; }
      });
      chart.canvas.scrollIntoView({block: 'center'});
      const box = chart.legend.legendHitBoxes[best];
      return {label: items[best].text, kind: chart.canvas.dataset.kind, task: name,
              x: box.left + Math.min(box.width / 2, 20), y: box.top + box.height / 2};
    }, first);
    const visibility = () => page.evaluate(() => window.ordoReport.charts().map(c => ({
      where: `task ${c.canvas.dataset.task}, ${c.canvas.dataset.kind} chart`,
      sets: c.data.datasets.map((d, i) => ({label: d.label, visible: c.isDatasetVisible(i)})),
    })));
    if (check(target !== null, `task ${first}: no chart with a legend entry to click`)) {
      const before = await visibility();
      const selector = `canvas[data-task="${target.task.replace(/"/g, '\\"')}"][data-kind="${target.kind}"]`;
      await page.locator(selector).click({position: {x: target.x, y: target.y}});
      await nextFrame();
      const after = await visibility();
      const holding = after.filter(c => c.sets.some(s => s.label === target.label));
      check(holding.length >= 2, `series "${target.label}" is in only ${holding.length} chart(s); cannot check hiding everywhere`);
      if (data.tasks.length > 1) {
        check(new Set(holding.map(c => c.where.split(',')[0])).size > 1, `series "${target.label}" is in the charts of one task only`);
      }
      after.forEach((c, ci) => c.sets.forEach((s, si) => {
        if (s.label === target.label) check(!s.visible, `after clicking legend entry "${target.label}" in task ${target.task}'s ${target.kind} chart, it is still visible in ${c.where}`);
        else check(s.visible === before[ci].sets[si].visible, `clicking legend entry "${target.label}" changed the visibility of "${s.label}" in ${c.where}`);
      }));
      const struck = await page.evaluate(sel => {
        const c = window.ordoReport.charts().find(ch => ch.canvas.matches(sel));
        return c.legend.legendItems.filter(it => it.hidden).map(it => it.text);
      }, selector);
      check(struck.length === 1 && struck[0] === target.label, `the clicked legend does not show "${target.label}" as hidden (hidden: ${struck.join(', ') || 'none'})`);
      await page.locator(selector).click({position: {x: target.x, y: target.y}});
      await nextFrame();
      const again = await visibility();
      again.forEach((c, ci) => c.sets.forEach((s, si) => {
        check(s.visible === before[ci].sets[si].visible, `after a second click on "${target.label}", "${s.label}" is ${s.visible ? 'visible' : 'hidden'} in ${c.where} (was ${before[ci].sets[si].visible ? 'visible' : 'hidden'})`);
      }));
    }
    await page.evaluate(name => window.ordoReport.showTask(name), first);
    await nextFrame();
  }

  if (screenshot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: screenshot, fullPage: true});
  }

  for (const e of pageErrors) check(false, `uncaught exception in the page: ${e.split('\n')[0]}`);
  for (const e of consoleErrors) check(false, `console error: ${e}`);
  const foreign = [...new Set(requests)].filter(u => !(u === pageUrl || u.startsWith('data:') || u.startsWith('blob:')));
  for (const u of foreign) check(false, `the page requested ${u} (only its own file, data: and blob: are allowed)`);
} finally {
  await context.close();
  fs.rmSync(userDataDir, {recursive: true, force: true});
}

if (failures.length) {
  console.log(`check_report: ${failures.length} of ${checks} checks failed on ${reportPath}`);
  process.exit(1);
}
console.log(`check_report: all ${checks} checks passed on ${reportPath}` + (screenshot ? `; screenshot ${screenshot}` : ''));
