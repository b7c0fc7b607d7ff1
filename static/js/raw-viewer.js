// The raw file viewer (/raw/?result=<id>&member=<name>): fetches the result's bundle, a tar
// archive compressed with gzip (runner/fsatlas/results/bundle.py), unpacks it in memory with the
// browser's own DecompressionStream, lists its members and shows the one asked for. Members are
// shown as text (textContent), never as markup.
(function () {
  "use strict";
  const root = document.getElementById("raw-viewer");
  if (!root) return;
  const status = document.getElementById("raw-status");
  const params = new URLSearchParams(location.search);
  const rid = params.get("result") || "";
  const wanted = params.get("member");
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(rid)) {
    status.textContent = rid ? "That is not a result id." : "No result chosen.";
    return;
  }

  const text = (bytes, from, length) => {
    const part = bytes.subarray(from, from + length);
    const end = part.indexOf(0);
    return new TextDecoder().decode(end < 0 ? part : part.subarray(0, end));
  };

  // ustar headers, with the pax extended headers Python's tarfile writes for long names.
  function members(bytes) {
    const out = [];
    let at = 0, paxPath = null;
    while (at + 512 <= bytes.length) {
      const header = bytes.subarray(at, at + 512);
      if (header.every((b) => b === 0)) break;
      const size = parseInt(text(header, 124, 12).trim() || "0", 8);
      const type = String.fromCharCode(header[156] || 48);
      const prefix = text(header, 345, 155);
      const data = bytes.subarray(at + 512, at + 512 + size);
      if (type === "x") {
        const found = new TextDecoder().decode(data).match(/(?:^|\n)\d+ path=([^\n]*)\n/);
        paxPath = found ? found[1] : null;
      } else if (type === "0" || type === "\0") {
        const name = paxPath || (prefix ? prefix + "/" : "") + text(header, 0, 100);
        out.push({ name, data });
        paxPath = null;
      } else {
        paxPath = null;
      }
      at += 512 + Math.ceil(size / 512) * 512;
    }
    return out;
  }

  const link = (member) => `?result=${encodeURIComponent(rid)}&member=${encodeURIComponent(member)}`;

  async function show() {
    status.textContent = `Reading ${rid}.tar.gz…`;
    const response = await fetch(root.dataset.bundles + encodeURIComponent(rid) + ".tar.gz");
    if (!response.ok) throw new Error(`no raw bundle for ${rid} (HTTP ${response.status})`);
    const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    const list = members(bytes);
    const nav = document.getElementById("raw-members");
    for (const m of list) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = link(m.name);
      a.textContent = m.name;
      if (m.name === wanted) a.setAttribute("aria-current", "page");
      li.appendChild(a);
      nav.appendChild(li);
    }
    const back = document.createElement("a");
    back.href = root.dataset.results + encodeURIComponent(rid) + "/";
    back.textContent = rid;
    status.replaceChildren(`${list.length} members in ${rid}.tar.gz, the raw output of result `, back, ".");
    const chosen = list.find((m) => m.name === wanted);
    if (wanted && !chosen) status.append(` It holds no member ${wanted}.`);
    if (!chosen) return;
    const heading = document.getElementById("raw-member-name");
    heading.textContent = chosen.name;
    heading.hidden = false;
    const pre = document.getElementById("raw-text");
    pre.textContent = new TextDecoder().decode(chosen.data);
    pre.hidden = false;
    const download = document.getElementById("raw-download");
    download.href = URL.createObjectURL(new Blob([chosen.data], { type: "application/octet-stream" }));
    download.download = chosen.name.split("/").join("--");
    download.hidden = false;
  }

  show().catch((e) => { status.textContent = `Cannot read the raw bundle: ${e.message}`; });
})();
