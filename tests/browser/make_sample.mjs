// tests/browser/make_sample.mjs: builds a report.html from the page template, Chart.js and a
// JSON file exactly as `ordo compare` does: each placeholder (it must occur exactly once) is
// replaced literally, and every "<" of the JSON is written as \u003c.
//
//   node tests/browser/make_sample.mjs OUT.html [--data FILE.json] [--template FILE.html] [--chartjs FILE.js]
//
// Defaults: tests/browser/sample_data.json, report/report_template.html and Debian's
// /usr/share/javascript/chart.js/chart.min.js (package libjs-chart.js, Chart.js 3.9.1).
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const opts = {
  data: path.join(here, 'sample_data.json'),
  template: path.join(here, '..', '..', 'report', 'report_template.html'),
  chartjs: '/usr/share/javascript/chart.js/chart.min.js',
};
let out = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  const a = argv[i];
  if (a.startsWith('--') && a.slice(2) in opts && i + 1 < argv.length) opts[a.slice(2)] = argv[++i];
  else if (!a.startsWith('--') && out === null) out = a;
  else { console.error(`make_sample: unexpected argument ${a}`); process.exit(2); }
}
if (out === null) {
  console.error('usage: node make_sample.mjs OUT.html [--data FILE.json] [--template FILE.html] [--chartjs FILE.js]');
  process.exit(2);
}

function split(text, placeholder) {
  const parts = text.split(placeholder);
  if (parts.length !== 2) throw new Error(`${placeholder} occurs ${parts.length - 1} times in the template, not once`);
  return parts;
}

// Both placeholders are found in the template itself, so neither replacement is searched again.
const template = fs.readFileSync(opts.template, 'utf8');
const chartjs = fs.readFileSync(opts.chartjs, 'utf8');
const json = JSON.stringify(JSON.parse(fs.readFileSync(opts.data, 'utf8'))).replaceAll('<', '\\u003c');
split(template, '/*ORDO_DATA*/');  // once in the whole template
const [before, rest] = split(template, '/*ORDO_CHARTJS*/');
const [middle, after] = split(rest, '/*ORDO_DATA*/');
const html = before + chartjs + middle + json + after;  // no String.replace: "$&" must stay literal
fs.writeFileSync(out, html);
console.log(`make_sample: wrote ${out} (${html.length} bytes)`);
