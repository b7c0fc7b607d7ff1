// Draws the charts of a built site's pages to SVG at build time, so a page shows its charts
// with no script and the reader's browser loads Vega only when asked (static/js/charts.js).
// Usage: node scripts/draw-charts.mjs SITE CACHE [FILES [BASE]]. Every *.html under SITE with a
// chart figure (layouts/partials/charts/chart.html) gets the SVG inside its .chart-view and
// data-drawn="build". A figure's rows are inline or a file (data-rows, found under SITE or
// FILES: a folder the site serves that is not in SITE, build/static); BASE: the site's base URL
// (Hugo's baseURL, "/" unless given), against which a page's addresses resolve (weighed()).
// Inline rows move to a file beside the spec (data-rows, fetched only when the reader asks for the interactive
// chart): a page carries its numbers once, in the picture and the table beside it.
// Result pages' throughput charts are drawn by fsatlas aggregate (runner/fsatlas/site/result_chart.py:
// Vega's 46 ms a chart is too slow for 10,000 pages), to the same panels as Vega draws them.
// node scripts/draw-charts.mjs --weigh SITE FILES BASE PAGE... prints "<bytes>\t<PAGE>" for each
// page: what it loads at first view (weighed()), as a page's byte budget counts it.
// Each SVG is kept in CACHE under the hash of what it is drawn from, so
// a rebuild draws only charts that changed. The spec is made by static/js/chart-spec.js, as the
// browser makes it for the screen (its ink "currentColor", set by the page's CSS in light and
// dark mode alike); with the pinned vega and vega-lite of node_modules. The SVG is made smaller
// without changing what it shows (compact()): coordinates to a tenth of a pixel, and the
// symbol marks' circles written as <circle>; each mark's label is its <title>, shown on hover.
// The explorer's page gets the SVG of its default view (drawExplorer()).
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const chartSpec = require("../static/js/chart-spec.js");
const WEIGH = process.argv[2] === "--weigh";
// Vega and Vega-Lite, loaded when the first chart not in CACHE is drawn: a build whose charts
// are all kept (and weighing, which draws nothing) does without them, a third of a second less
let drawers = null;
const loadDrawers = () => (drawers ??= Promise.all([import("vega"), import("vega-lite")]));
const [site, cache, files, baseUrl] = WEIGH ? [process.argv[3], null, process.argv[4], process.argv[5]] : process.argv.slice(2);
// What draws a chart besides its spec and rows: a change to either file draws every chart anew.
const DRAWER = createHash("sha256").update(fs.readFileSync(new URL(import.meta.url)))
  .update(fs.readFileSync(require.resolve("../static/js/chart-spec.js"))).digest("hex");
if (cache) fs.mkdirSync(cache, { recursive: true });

const FIGURE = /<figure class="chart"([^>]*)>(\s*)<div class="chart-view"([^>]*)><\/div>(?:(\s*)<script type="application\/json" class="chart-data">([\s\S]*?)<\/script>)?/g;
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&#34;": '"', "&quot;": '"', "&#39;": "'", "&#43;": "+" };
const unescape = (text) => text.replace(/&(amp|lt|gt|quot|#34|#39|#43);/g, (m) => ENTITIES[m]);
const attribute = (attrs, name) => {
  const found = attrs.match(new RegExp(`\\s${name}="([^"]*)"`));
  return found ? unescape(found[1]) : "";
};

function* pages(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* pages(full);
    else if (entry.name.endsWith(".html")) yield full;
  }
}

// A file's address is site-relative, perhaps under the base URL's path: the file is the
// longest tail of it that exists under SITE (or FILES).
function siteFile(url) {
  const parts = url.split("?")[0].split("/").filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    for (const root of files ? [site, files] : [site]) {
      const candidate = path.join(root, ...parts.slice(i));
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  throw new Error(`no file for ${url}`);
}

// --- What a page loads at first view -------------------------------------------------------
// A page's budget (data-page-budget) holds for what a reader's browser loads to show it, not its
// HTML alone: the HTML and each file of the site the HTML names to be loaded with it, the
// stylesheets, scripts, icons and images of its <link rel="stylesheet|icon|preload|modulepreload">,
// <script src> and <img src> (srcset too). Not what loads only on request (Vega, which charts.js
// loads when a reader reaches for a chart; a chart's spec and rows; pagefind's index), and not
// files of other hosts, which the site does not serve. Images and fonts a stylesheet names would
// load too: the site's CSS names none (no url(), no @import; tests/site/test_site.py checks), so
// they are not looked for. A file named twice by one address (relative, root-relative or full:
// the same address once resolved) loads once and counts once; a query string makes another
// address, loaded again, but of the same file. Addresses resolve as a browser resolves them
// against the page's own, which the page's path under SITE and the site's base URL (BASE, "/"
// unless given: Hugo's baseURL, under which relURL writes every address) make.
const BASE = new URL((baseUrl || "/").replace(/\/?$/, "/"), "http://site.invalid/");  // a base URL of a path alone: any host
// what a browser parses as a tag outside comments and the text of scripts and styles (whose "<"
// is not a tag), and what loads of it
const TAGS = /<!--[\s\S]*?-->|<(script|style|textarea|title)\b((?:[^>"']|"[^"]*"|'[^']*')*)>[\s\S]*?<\/\1\s*>|<(link|img)\b((?:[^>"']|"[^"]*"|'[^']*')*)>|<[a-z][^\s\/>]*(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const ATTRIBUTE = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const LOADED_LINKS = new Set(["stylesheet", "icon", "preload", "modulepreload"]);

function attributesOf(text) {
  const out = {};
  for (const [, name, ...values] of (text || "").matchAll(ATTRIBUTE)) {
    const key = name.toLowerCase();
    if (!(key in out)) out[key] = unescape(values.find((v) => v !== undefined) || "");
  }
  return out;
}

// The addresses a page's HTML has loaded with it (as written, in the order written).
function loadedAddresses(html) {
  const out = [];
  for (const [tag, raw, rawAttrs, other, otherAttrs] of html.matchAll(TAGS)) {
    if (!raw && !other) continue;  // a comment, or a tag that loads nothing
    const name = (raw || other).toLowerCase(), a = attributesOf(raw ? rawAttrs : otherAttrs);
    if (name === "script" && a.src) out.push(a.src);
    if (name === "link" && a.href && (a.rel || "").toLowerCase().split(/\s+/).some((r) => LOADED_LINKS.has(r))) out.push(a.href);
    if (name === "img") {
      if (a.src) out.push(a.src);
      for (const candidate of (a.srcset || "").split(",")) if (candidate.trim()) out.push(candidate.trim().split(/\s+/)[0]);
    }
  }
  return out;
}

// The bytes of a page (its file under SITE and its text) as loaded at first view; an address of
// the site with no file (a broken link, which htmltest reports) weighs nothing and is named on stderr.
function weighed(file, html) {
  const at = new URL(path.relative(site, file).split(path.sep).join("/").replace(/(^|\/)index\.html$/, "$1"), BASE);
  const seen = new Set();
  let bytes = Buffer.byteLength(html);
  for (const address of loadedAddresses(html)) {
    let url;
    try { url = new URL(address, at); } catch { continue; }  // not an address a browser loads
    url.hash = "";
    if (url.origin !== BASE.origin || !url.pathname.startsWith(BASE.pathname) || seen.has(url.href)) continue;
    seen.add(url.href);
    let relative = url.pathname.slice(BASE.pathname.length);
    try { relative = decodeURIComponent(relative); } catch { /* a stray %: the file is named so */ }
    if (relative === "" || relative.endsWith("/")) relative += "index.html";
    const candidate = [site, files].filter(Boolean).map((root) => path.join(root, ...relative.split("/")))
      .find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
    if (!candidate) {
      console.error(`draw-charts: ${path.relative(site, file)}: loads ${address}, which is not a file of the site`);
      continue;
    }
    bytes += fs.statSync(candidate).size;
  }
  return bytes;
}

// Geometry to a tenth of a pixel (vega writes 16 digits: 36.66666666666667), and each circle
// vega writes as a path (translate(x,y) and two arcs of radius r) as the same <circle>.
const GEOMETRY = /\s(d|transform|x|y|x1|x2|y1|y2|width|height)="[^"]*"/g;
const CIRCLE = /<path transform="translate\((-?[\d.e-]+),(-?[\d.e-]+)\)" d="M([\d.]+),0A\3,\3,0,1,1,-\3,0A\3,\3,0,1,1,\3,0"((?: (?!stroke=)[a-z-]+="[^"]*")*)\/>/g;
const rounder = (per) => (text) => text.replace(/-?\d+\.\d+(?:e-?\d+)?/g, (n) => String(Math.round(Number(n) * per) / per));
const tenth = rounder(10);
// A mark's label (its tooltip's fields: value, n, interval, run) as its <title>, which a browser
// shows on hover over the picture, before any script, and which names it for a screen reader
// as the aria-label did.
const LABELLED = /<(\w+) aria-label="([^"]*)"( role="graphics-symbol"[^>]*?)\/>/g;
// An axis's ticks, labels and grid lines each repeat the same paint and font (stroke="currentColor"
// stroke-opacity="0.6" stroke-width="1", a third of a crowded picture): an attribute every
// child of such a group gives alike is given once by the group, which they inherit it from.
// opacity="1", the default (and not inherited), is left out everywhere.
const AXIS_GROUP = /(<g class="mark-(?:rule|text) role-axis-[a-z]+"[^>]*)>((?:<(?:line|text)\b[^>]*?(?:\/>|>[^<]*<\/text>))+)<\/g>/g;
const INHERITED = ["fill", "stroke", "stroke-opacity", "stroke-width", "font-family", "font-size", "font-weight", "text-anchor"];
function hoisted(m, open, children) {
  const tags = children.match(/<(?:line|text)\b[^>]*?(?:\/>|>)/g);
  const shared = INHERITED.map((name) => [name, tags.map((tag) => (tag.match(new RegExp(` ${name}="([^"]*)"`)) || [])[1])])
    .filter(([, values]) => values[0] !== undefined && values.every((v) => v === values[0]));
  if (!shared.length) return m;
  const strip = new RegExp(` (?:${shared.map(([name]) => name).join("|")})="[^"]*"`, "g");
  return `${open}${shared.map(([name, values]) => ` ${name}="${values[0]}"`).join("")}>${children.replace(/<(?:line|text)\b[^>]*?(?:\/>|>)/g, (tag) => tag.replace(strip, ""))}</g>`;
}

// round: the geometry's rounding (tenth, or whole pixels for a page over its budget: STEPS).
// A layer with no mark to draw (history's bars without a re-run, where every bar has one) is an
// empty container Vega still calls a graphics-symbol: a symbol without a name, which axe counts
// as a serious violation (svg-img-alt). It draws nothing: it goes.
const EMPTY_MARKS = /<g class="mark-[a-z]+ role-mark[^"]*" role="graphics-symbol"[^>]*\/>/g;
function compact(svg, round = tenth) {
  return svg
    .replace(EMPTY_MARKS, "")
    .replace(/ opacity="1"/g, "")
    .replace(AXIS_GROUP, hoisted)
    .replace(LABELLED, (m, tag, label, rest) => `<${tag}${rest}><title>${label.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</title></${tag}>`)
    .replace(CIRCLE, (m, x, y, r, rest) => `<circle cx="${x}" cy="${y}" r="${r}"${rest.replace(/ stroke-width="[^"]*"/, "")}/>`)
    .replace(GEOMETRY, round)
    .replace(/\s(cx|cy|r)="[^"]*"/g, round);
}

// A page that declares a byte budget (data-page-budget on its figures: home and the guides,
// layouts/partials/charts/chart.html) whose charts make it, as loaded (weighed()), heavier is drawn again with fewer
// marks, a step at a time, until it fits: first without the repetitions' dots (each bar keeps
// its mean, interval and <title>: its figures, run and machine on hover), then with its
// geometry to the whole pixel, then with only its first panels (the spec's facet: workloads;
// rows where it has none), as few dropped as fit. The picture's weight no longer grows with
// bars x repetitions, nor without bound with bars; a figure drawn lighter says what it leaves
// out in its caption (note()), and the interactive chart (its rows file) and the result pages
// draw everything.
// A step: { dots: drawn or not, whole: geometry to the whole pixel, panels: the most drawn }.
const FULL = { dots: true, whole: false, panels: Infinity };
const STEPS = [FULL, { ...FULL, dots: false }, { ...FULL, dots: false, whole: true }];

// What a figure's rows become at a step: { rows (their JSON), shown, of: its panels drawn and in
// all (0 and 0 at FULL), what: the panels' noun }; a panel is a value of the spec's facet field,
// or a row where it has none, in sorted order (Vega-Lite's order of facets).
function lighter(specText, rows, step) {
  let list = JSON.parse(rows);
  if (step.dots && step.panels === Infinity) return { rows, shown: 0, of: 0 };
  if (!step.dots) list = list.map((row) => ({ ...row, samples: [] }));
  const facet = (JSON.parse(specText).facet || {}).field;
  const names = [...new Set(list.map((row, i) => (facet ? row[facet] : i)))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const kept = new Set(names.slice(0, step.panels));
  if (kept.size < names.length) list = list.filter((row, i) => kept.has(facet ? row[facet] : i));
  return { rows: JSON.stringify(list), shown: kept.size, of: names.length, what: facet ? `${facet}s` : "rows" };
}

function note(step, cut) {
  if (!cut.of && step.dots) return "";
  const left = [];
  if (cut.shown < cut.of) left.push(`shows its first ${cut.shown} of ${cut.of} ${cut.what}`);
  if (!step.dots) left.push("leaves out the repetitions' dots");
  if (step.whole) left.push("places its marks to the whole pixel");
  return ` To keep this page light, the picture ${left.join(", ").replace(/, ([^,]*)$/, " and $1")}; the interactive chart (select the picture) and each run's result page draw everything.`;
}

// A chart drawn in a view of its own: its spec compiled and parsed with its rows in it.
async function drawnAlone(specText, rows, axis) {
  const [vega, vegaLite] = await loadDrawers();
  const spec = chartSpec.inked(chartSpec.build(specText, rows, axis), true);
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

// The chart's SVG file in CACHE, drawn (drawnAlone) unless it is there:
// { file, drawn (0 or 1) }.
async function svgFile(specText, rows, axis, whole = false) {
  const key = createHash("sha256").update(`${DRAWER}\0${specText}\0${rows}\0${axis}\0${whole}`).digest("hex");
  const kept = path.join(cache, `${key}.svg`);
  if (fs.existsSync(kept)) return { drawn: 0, file: kept };
  const svg = compact(await drawnAlone(specText, rows, axis), whole ? rounder(1) : tenth);
  fs.writeFileSync(`${kept}.${process.pid}.part`, svg);  // a build of another site may draw the same chart
  fs.renameSync(`${kept}.${process.pid}.part`, kept);
  return { drawn: 1, file: kept };
}

async function svgOf(specText, rows, axis, whole = false) {
  const made = await svgFile(specText, rows, axis, whole);
  return { ...made, svg: fs.readFileSync(made.file, "utf8") };
}

let figures = 0, drawn = 0;

// A page's text with its figures drawn at one step (FULL, STEPS): { text, figures, drawn, budget,
// panels }, budget the largest data-page-budget its figures declare (0: none), panels the most
// panels a figure with a budget has.
async function placed(file, html, step) {
  const parts = [];
  let last = 0, figures = 0, drawn = 0, budget = 0, panels = 0;
  for (const m of html.matchAll(FIGURE)) {
    const [whole, attrs, gap1, viewAttrs, gap2 = "", inline] = m;
    const rowsAt = attribute(attrs, "data-rows");
    if (inline === undefined && !rowsAt) continue;  // not a chart of rows (the explorer's own)
    try {
      const specUrl = attribute(attrs, "data-spec");
      const specText = fs.readFileSync(siteFile(specUrl), "utf8");
      const rows = inline === undefined ? fs.readFileSync(siteFile(rowsAt), "utf8") : inline;
      const own = Number(attribute(attrs, "data-page-budget")) || 0;
      budget = Math.max(budget, own);
      const cut = lighter(specText, rows, own ? step : FULL);
      panels = Math.max(panels, own ? lighter(specText, rows, { ...FULL, panels: 0 }).of : 0);
      const made = await svgOf(specText, cut.rows, attribute(attrs, "data-axis"), own && step.whole);
      let moved = "";
      if (inline !== undefined) {
        const rowsName = `rows-${createHash("sha256").update(rows).digest("hex").slice(0, 20)}.json`;
        const rowsFile = path.join(path.dirname(siteFile(specUrl)), rowsName);
        if (!fs.existsSync(rowsFile)) {
          fs.writeFileSync(`${rowsFile}.part`, rows);
          fs.renameSync(`${rowsFile}.part`, rowsFile);
        }
        moved = ` data-rows="${specUrl.split("?")[0].replace(/[^/]*$/, rowsName)}"`;
      }
      const said = own ? note(step, cut) : "";
      parts.push(html.slice(last, m.index),
                 `<figure class="chart" data-drawn="build"${moved}${said ? ` data-lighter="${escapeText(said.trim()).replace(/"/g, "&quot;")}"` : ""}${attrs}>${gap1}<div class="chart-view"${viewAttrs}>${made.svg}</div>${inline === undefined ? "" : gap2}`);
      figures += 1;
      drawn += made.drawn;
    } catch (error) {  // left for the browser to draw, which will say what is wrong
      parts.push(html.slice(last, m.index), whole);
      console.error(`draw-charts: ${path.relative(site, file)}: ${attribute(attrs, "data-chart")}: ${error.message}`);
    }
    last = m.index + whole.length;
  }
  if (!parts.length) return { text: html, figures, drawn, budget, panels };
  parts.push(html.slice(last));
  // the caption of a figure drawn lighter says what the picture leaves out
  const text = parts.join("").replace(/(<figure class="chart" data-drawn="build"[^>]*? data-lighter="([^"]*)"[\s\S]*?)(<\/figcaption>)/g,
                                      (m, before, said, close) => `${before}<span class="chart-lighter"> ${said}</span>${close}`);
  return { text, figures, drawn, budget, panels };
}

// The bytes of a page as loaded (weighed): its HTML as drawn and the files it loads, which
// drawing does not change (a chart's SVG names none).
const loaded = (page) => Buffer.byteLength(page.text) + page.files;
const over = (page) => page.budget && loaded(page) > page.budget;

// A page drawn at the first step that fits its budget; past the last of STEPS, with as many
// panels as fit (a binary search: each try draws the page's budgeted charts again).
async function fitted(file, html) {
  let files = 0;
  const at = async (step) => ({ ...(await placed(file, html, step)), files });
  let page = await at(FULL);
  if (!page.budget) return page;
  files = page.files = weighed(file, html) - Buffer.byteLength(html);
  for (let i = 1; i < STEPS.length && over(page); i++) page = await at(STEPS[i]);
  if (!over(page)) return page;
  let low = 1, high = page.panels - 1, best = null;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const tried = await at({ ...STEPS[STEPS.length - 1], panels: mid });
    if (over(tried)) high = mid - 1; else { best = tried; low = mid + 1; }
  }
  return best || await at({ ...STEPS[STEPS.length - 1], panels: 1 });
}

async function drawPages() {
  for (const file of pages(site)) {
    const html = fs.readFileSync(file, "utf8");
    if (!html.includes('<figure class="chart"')) continue;
    const page = await fitted(file, html);
    if (over(page)) {
      console.error(`draw-charts: ${path.relative(site, file)}: ${loaded(page)} bytes as loaded (its HTML and ${page.files} bytes of files it loads), over its budget of ${page.budget} with its charts drawn as light as they go`);
    }
    if (page.text !== html) {
      fs.writeFileSync(`${file}.part`, page.text);
      fs.renameSync(`${file}.part`, file);
    }
    figures += page.figures;
    drawn += page.drawn;
  }
  console.log(`draw-charts: ${figures} charts in place, ${drawn} drawn anew`);
}

// The --weigh mode: each page named (a file under SITE) as loaded (weighed), "<bytes>\t<page>"
// a line, for a test that weighs them another way (tests/site/test_site.py).
function weighPages(named) {
  for (const file of named) process.stdout.write(`${weighed(file, fs.readFileSync(file, "utf8"))}\t${file}\n`);
}

// --- The explorer's default view ---------------------------------------------------------
// What static/js/explorer.js draws for an address with no query (data["default"]'s run, every
// filesystem, variant defaults, every workload, throughput, absolute figures, across workloads),
// made by the same code (static/js/explorer-view.js) from the same files (explorer/data.json, the
// run's explorer/rows/<id>.json), in the wide layout (the build cannot know the screen; the page's
// CSS scales the picture down to a phone's width). It goes into the page's #explorer-first, which
// the page hides before it is painted when its address names a view of its own, and which
// explorer.js replaces with its interactive chart once that is drawn.
const explorerView = require("../static/js/explorer-view.js");
const FIRST = /(<div class="chart-view explorer-first" id="explorer-first")(>)(<\/div>)/;
const CAPTION = /(<span id="explorer-caption">)(<\/span>)/;
const escapeText = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function drawExplorer() {
  for (const file of pages(site)) {
    const html = fs.readFileSync(file, "utf8");
    if (!FIRST.test(html)) continue;
    try {
      const article = html.match(/<article[^>]* id="explorer"[^>]*>/)[0];
      const dataFile = siteFile(attribute(article, "data-src"));
      const model = explorerView.model(JSON.parse(fs.readFileSync(dataFile, "utf8")));
      if (!model.data.results.length) continue;
      const view = model.readState(new URLSearchParams(""));
      for (const id of view.results) {
        model.add(id, JSON.parse(fs.readFileSync(path.join(path.dirname(dataFile), "rows", `${id}.json`), "utf8")));
      }
      const chart = model.chart(view);
      if (!chart.shown.length) continue;
      // the spec without its values, and the values, as svgOf takes a figure's (chartSpec.build joins them)
      const { data, ...spec } = explorerView.spec(view, chart.shown, chart.unitLabel, explorerView.WIDE_COLUMNS);
      const made = await svgOf(JSON.stringify(spec), JSON.stringify(data.values), "");
      const label = `Chart of the default view: ${view.metric} of every filesystem with its default options, run ${view.results.join(", ")}`;
      // the default view's query: an address naming it shows this picture too (the page's script)
      const page = html.replace(article, () => `${article.slice(0, -1)} data-default-query="${escapeText(model.query(view)).replace(/"/g, "&quot;")}">`).replace(FIRST, (m, open, end, close) => `${open} role="img" aria-label="${escapeText(label).replace(/"/g, "&quot;")}"${end}${made.svg}${close}`)
        .replace(CAPTION, (m, open, close) => open + escapeText(explorerView.caption(view, chart.unitLabel)) + close);
      fs.writeFileSync(`${file}.part`, page);
      fs.renameSync(`${file}.part`, file);
      figures += 1;
      drawn += made.drawn;
    } catch (error) {  // left for the browser to draw, which will say what is wrong
      console.error(`draw-charts: ${path.relative(site, file)}: the explorer's default view: ${error.message}`);
    }
  }
}

await (WEIGH ? weighPages(process.argv.slice(6))
  : drawExplorer().then(drawPages));  // drawPages prints the count
