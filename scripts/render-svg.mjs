// Draws Vega-Lite specs as SVG in Node, with the pinned vega and vega-lite of node_modules:
// reads a JSON array of specs on standard input, writes a JSON array of SVG texts. No renderer
// but SVG strings ('none'), no network (the specs carry their data inline).
import * as vega from "vega";
import * as vegaLite from "vega-lite";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const specs = JSON.parse(input);
const out = [];
for (const spec of specs) {
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  out.push(await view.toSVG());
  view.finalize();
}
process.stdout.write(JSON.stringify(out));
