// The Tessel console page: polls the JSON endpoints (/api/...) every few
// seconds and draws the heat map (Apache ECharts, custom series of one
// rectangle per tablet per time column) and the tables below it.
"use strict";

(function () {
  const POLL_MS = 5000;
  const state = { table: "", metric: "writes", since: "1h", filter: null, data: {} };
  const $ = (id) => document.getElementById(id);
  const chart = echarts.init($("heatmap"));

  function text(v) { return v === null || v === undefined ? "" : String(v); }
  function esc(v) {
    return text(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  function num(v, digits) {
    if (v === null || v === undefined) return "";
    return Number(v).toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 1 : digits });
  }
  function bytes(v) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let x = Number(v), i = 0;
    while (x >= 1024 && i < units.length - 1) { x /= 1024; i++; }
    return x.toFixed(i ? 1 : 0) + " " + units[i];
  }
  function range(start, end) { return "[" + (start === "" ? "−∞" : start) + ", " + (end === "" ? "+∞" : end) + "]"; }
  function sameTablet(t, table, start) { return t && t.table === table && t.range_start === start; }

  async function get(path) {
    const res = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (res.status === 401) { window.location.href = "/login"; throw new Error("login required"); }
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || res.statusText);
    return body;
  }

  function query() {
    const p = new URLSearchParams();
    if (state.table) p.set("table", state.table);
    return p;
  }

  async function refresh() {
    try {
      const q = query();
      const hm = new URLSearchParams(q);
      hm.set("metric", state.metric);
      hm.set("since", state.since);
      const [tablets, heatmap, hot, large, advice] = await Promise.all([
        get("/api/tablets?" + q), get("/api/heatmap?" + hm), get("/api/hot?" + q),
        get("/api/large?" + q), get("/api/advice?" + q)]);
      state.data = { tablets, heatmap, hot, large, advice };
      render();
      $("live").textContent = "live · updated " + new Date().toLocaleTimeString();
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
    } catch (e) {
      $("live").textContent = "update failed: " + e.message;
    }
  }

  function render() {
    renderNodes();
    renderTableChoice();
    renderHeatmap();
    renderFilter();
    renderHot();
    renderAdvice();
    renderLarge();
    renderTablets();
  }

  function renderNodes() {
    const nodes = state.data.tablets.nodes || [];
    $("nodes").innerHTML = nodes.map((n) =>
      `<span class="up" title="${esc(n.host_id)}">${esc(n.address)} ${esc(n.data_center)}/${esc(n.rack)}${n.local ? " (this node)" : ""}</span>`).join("");
  }

  function renderTableChoice() {
    const sel = $("table");
    const names = state.data.tablets.tables.map((t) => t.name);
    const have = Array.from(sel.options).map((o) => o.value).slice(1);
    if (state.table === "" && names.join() !== have.join()) {
      sel.innerHTML = '<option value="">all tables</option>' +
        names.map((n) => `<option value="${esc(n)}">${esc(n)}</option>`).join("");
      sel.value = state.table;
    }
  }

  // The hot partitions of one tablet (hash tables only: the key's token
  // names its tablet).
  function tabletHot(table, start) {
    return (state.data.hot.partitions || []).filter((p) => sameTablet(p.tablet && { table: p.table, range_start: p.tablet.range_start }, table, start));
  }

  function heatItems() {
    const hm = state.data.heatmap;
    const items = [];
    for (const col of hm.columns) {
      for (const b of col.bands) {
        items.push([col.at, col.at + col.span_ms, b.y0, b.y1, b.value, b.table, b.range_start, b.range_end]);
      }
    }
    return items;
  }

  function renderHeatmap() {
    const hm = state.data.heatmap;
    const items = heatItems();
    const now = hm.now;
    // The range asked for, or less while the node has not recorded that long.
    const first = hm.columns.length ? hm.columns[0].at : now - hm.since_ms;
    const xMin = Math.max(now - hm.since_ms, first);
    chart.setOption({
      animation: false,
      grid: { left: 150, right: 90, top: 20, bottom: 40 },
      tooltip: {
        confine: true,
        formatter: (p) => {
          const [at, , , , value, table, start, end] = p.value;
          const top = tabletHot(table, start).slice(0, 3);
          return `<b>${esc(table)}</b> tablet ${esc(range(start, end))}<br>` +
            `${esc(hm.metric)}: <b>${num(value, 1)}</b> ${esc(hm.unit)} at ${new Date(at).toLocaleTimeString()}` +
            (top.length ? "<br>top partitions: " + top.map((t) => `${esc(t.partition_key)} (${num(t.count, 0)})`).join(", ") : "");
        },
      },
      xAxis: { type: "time", min: xMin, max: now },
      yAxis: {
        type: "value", min: 0, max: 1, inverse: true, splitLine: { show: false },
        axisLabel: {
          formatter: (v) => {
            const t = hm.tables.find((x) => Math.abs(x.y0 - v) < 1e-9);
            return t ? t.name : "";
          },
        },
        interval: hm.tables.length ? 1 / hm.tables.length : 1,
      },
      visualMap: {
        min: 0, max: Math.max(hm.max, 1e-9), dimension: 4, calculable: false, orient: "vertical",
        right: 0, top: "center", text: [hm.unit, ""],
        inRange: { color: ["#f7fbff", "#fdd49e", "#fc8d59", "#d7301f", "#7f0000"] },
      },
      series: [{
        type: "custom",
        name: "tablets",
        renderItem: (params, api) => {
          const p0 = api.coord([api.value(0), api.value(2)]);
          const p1 = api.coord([api.value(1), api.value(3)]);
          const rect = echarts.graphic.clipRectByRect(
            { x: p0[0], y: p0[1], width: Math.max(p1[0] - p0[0], 1), height: Math.max(p1[1] - p0[1], 1) },
            { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
          return rect && { type: "rect", shape: rect, style: { fill: api.visual("color"), stroke: "rgba(0,0,0,0.08)" } };
        },
        encode: { x: [0, 1], y: [2, 3], tooltip: [4] },
        data: items,
      }],
    }, true);
  }

  // The band with the highest value in the newest column: what a reader of
  // the map sees as the hottest tablet now.
  function hottestBand() {
    const cols = state.data.heatmap ? state.data.heatmap.columns : [];
    if (!cols.length) return null;
    let best = null;
    for (const b of cols[cols.length - 1].bands) if (!best || b.value > best.value) best = b;
    return best;
  }

  function renderFilter() {
    const f = state.filter;
    $("filter").hidden = !f;
    if (f) $("filter-name").textContent = f.table + " " + range(f.range_start, f.range_end);
  }

  function renderHot() {
    let rows = state.data.hot.partitions || [];
    const f = state.filter;
    if (f) rows = rows.filter((p) => p.table === f.table && (!p.tablet || p.tablet.range_start === f.range_start));
    $("hot").querySelector("tbody").innerHTML = rows.map((p, i) =>
      `<tr><td>${i + 1}</td><td>${esc(p.table)}</td><td class="key">${esc(p.partition_key)}</td>` +
      `<td class="num">${num(p.count, 0)}</td><td class="num">${num(p.error, 0)}</td>` +
      `<td>${p.tablet ? esc(range(p.tablet.range_start, p.tablet.range_end)) : "(spread over tablets or ordered)"}</td></tr>`).join("") ||
      '<tr><td colspan="6">no traffic recorded yet</td></tr>';
  }

  function renderAdvice() {
    let rows = state.data.advice.advice || [];
    if (state.filter) rows = rows.filter((a) => a.table === state.filter.table);
    $("advice").innerHTML = rows.map((a, i) =>
      `<div class="advice ${esc(a.kind)}"><div><span class="table">${esc(a.table)}</span> · <span class="kind">${esc(a.kind)}</span></div>` +
      `<p class="message">${esc(a.message)}</p>` +
      (a.statement ? `<pre class="statement" id="stmt-${i}">${esc(a.statement)}</pre><button type="button" class="copy" data-stmt="stmt-${i}">Copy statement</button>` : "") +
      "</div>").join("") || "<p>no advice: no table has recorded traffic yet</p>";
  }

  function renderLarge() {
    let rows = state.data.large.partitions || [];
    if (state.filter) rows = rows.filter((p) => p.table === state.filter.table);
    $("large").querySelector("tbody").innerHTML = rows.map((p) =>
      `<tr><td>${esc(p.table)}</td><td>${esc(p.partition_key)}</td><td class="num">${bytes(p.size_bytes)}</td>` +
      `<td class="num">${num(p.rows, 0)}</td><td class="num">${num(p.tombstones, 0)}</td>` +
      `<td>${new Date(p.last_seen).toLocaleTimeString()}</td></tr>`).join("") ||
      '<tr><td colspan="6">no partition over a size or rows threshold</td></tr>';
  }

  function renderTablets() {
    const f = state.filter;
    const rows = [];
    const history = [];
    for (const t of state.data.tablets.tables) {
      if (f && t.name !== f.table) continue;
      for (const r of t.tablets) {
        const sel = f && r.range_start === f.range_start ? ' class="selected"' : "";
        if (f && !sel) continue;
        rows.push(`<tr${sel}><td>${esc(t.name)}</td><td>${r.id}</td><td>${esc(range(r.range_start, r.range_end))}</td>` +
          `<td class="num">${bytes(r.size_bytes)}</td><td class="num">${num(r.rows, 0)}</td>` +
          `<td class="num">${num(r.writes_per_sec)}</td><td class="num">${num(r.reads_per_sec)}</td>` +
          `<td class="num">${bytes(r.bytes_per_sec)}</td><td>${esc((r.replicas || []).join(", ") || "this node")}${r.stage ? " (moving: " + esc(r.stage) + ")" : ""}</td></tr>`);
      }
      for (const h of t.history) {
        history.push(`<li>${new Date(h.at).toLocaleTimeString()} ${esc(t.name)} ${esc(h.kind)}: ` +
          `${h.from.map((x) => esc(range(x.range_start, x.range_end))).join(" + ")} → ` +
          `${h.to.map((x) => esc(range(x.range_start, x.range_end))).join(" + ")}</li>`);
      }
    }
    $("tablets").querySelector("tbody").innerHTML = rows.join("");
    $("history").innerHTML = history.reverse().join("") || "<li>no split or merge seen since the node started</li>";
  }

  chart.on("click", (p) => {
    if (!p.value) return;
    state.filter = { table: p.value[5], range_start: p.value[6], range_end: p.value[7] };
    render();
  });
  $("filter-clear").addEventListener("click", () => { state.filter = null; render(); });
  $("advice").addEventListener("click", (e) => {
    const b = e.target.closest("button.copy");
    if (!b) return;
    const s = $(b.dataset.stmt).textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(s).then(() => { b.textContent = "Copied"; }, () => {});
  });
  for (const id of ["table", "metric", "since"]) {
    $(id).addEventListener("change", () => { state[id] = $(id).value; state.filter = null; refresh(); });
  }
  window.addEventListener("resize", () => chart.resize());
  // For scripts driving the page (the console test): the chart and the
  // hottest band as drawn.
  window.tesselConsole = {
    chart, hottestBand, state,
    bandPixel(band) {
      const cols = state.data.heatmap.columns;
      const col = cols[cols.length - 1];
      return chart.convertToPixel({ seriesIndex: 0 }, [col.at + col.span_ms / 2, (band.y0 + band.y1) / 2]);
    },
  };
  refresh();
  setInterval(refresh, POLL_MS);
})();
