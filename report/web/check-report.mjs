// Opens a `flux report` page in headless Chromium (Debian's, driven by puppeteer-core) and checks
// what a person would see: every chart drawn with marks, every section with charts non-empty, no
// console error, no request for anything but the page itself. Saves a screenshot.
// Usage: node check-report.mjs REPORT.html SCREENSHOT.png [min-sections] [height]
// (height: the screenshot holds only the top of the page, that many CSS pixels; default: all)
import puppeteer from 'puppeteer-core';
import {pathToFileURL} from 'node:url';
import {resolve} from 'node:path';
import {existsSync} from 'node:fs';

const [html, png, minSections = '1', height] = process.argv.slice(2);
if (!html || !png) {
  console.error('usage: node check-report.mjs REPORT.html SCREENSHOT.png [min-sections]');
  process.exit(2);
}
const chromium = process.env.CHROMIUM ||
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const failures = [];
const page_url = pathToFileURL(resolve(html)).href;

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 300000,
  // root in CI has no user namespace for the sandbox; the page is our own file
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({width: 1400, height: 900});
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.url() === page_url) return r.continue();
    failures.push(`request: ${r.url().slice(0, 120)}`);
    r.abort();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') failures.push(`console error: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message.slice(0, 300)}`));
  const t0 = Date.now();
  await page.goto(page_url, {waitUntil: 'load', timeout: 120000});
  await page.waitForFunction(() => document.body.getAttribute('data-rendered') !== 'false',
                             {timeout: 240000, polling: 200});
  const seconds = (Date.now() - t0) / 1000;
  const result = await page.evaluate(() => {
    // Data marks (not axes or legends) in a view's scene graph.
    const count = (mark) => {
      if (!mark) return 0;
      if (mark.marktype === 'group')
        return (mark.items || []).reduce(
          (n, item) => n + (item.items || []).reduce((k, m) => k + count(m), 0), 0);
      return mark.role === 'mark' ? (mark.items || []).length : 0;
    };
    return {
      rendered: document.body.getAttribute('data-rendered'),
      sections: [...document.querySelectorAll('section')].map((s) => ({
        id: s.id,
        charts: [...s.querySelectorAll('div.chart')].map((c) => {
          const view = window.fluxViews[c.id];
          const svg = c.querySelector('svg.marks');
          const canvas = c.querySelector('canvas.marks');
          return {
            id: c.id,
            marks: view ? count(view.scenegraph().root) : 0,
            drawn: svg ? svg.querySelectorAll('path,rect,line,text').length > 0
                       : !!canvas && canvas.width > 0 && canvas.height > 0,
          };
        }),
        rows: s.querySelectorAll('tr').length,
      })),
    };
  });
  if (result.rendered !== 'true') failures.push(`charts did not render: ${result.rendered}`);
  for (const s of result.sections) {
    if (s.charts.length === 0 && s.rows === 0) failures.push(`section ${s.id} is empty`);
    for (const c of s.charts) {
      if (c.marks === 0) failures.push(`section ${s.id}: ${c.id} has no marks`);
      if (!c.drawn) failures.push(`section ${s.id}: ${c.id} drew no SVG/canvas`);
    }
  }
  if (result.sections.length < Number(minSections))
    failures.push(`${result.sections.length} sections, expected at least ${minSections}`);
  await page.screenshot(height ? {path: png, clip: {x: 0, y: 0, width: 1400, height: Number(height)}}
                              : {path: png, fullPage: true});
  console.log(JSON.stringify({seconds, sections: result.sections.map(
    (s) => `${s.id}: ${s.charts.map((c) => c.marks).join('+') || s.rows + ' rows'}`)}));
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
