"use strict";
// Chart point: a line chart whose points are dragged vertically; the value is
// set by the pointer's y during a drag, rounded to the step and clamped.
FineState.define("chart_point", (host, params, state, kit) => {
  const { min, step, tick, column, px_per_step: pps, target } = params;
  const steps = Math.round((params.max - min) / step);
  const decimals = (String(step).split(".")[1] || "").length;
  const tickDecimals = (String(tick).split(".")[1] || "").length;
  const count = params.labels.length;
  const pads = FineStateMeasures.chart_point;
  const padTop = params.data_labels ? pads.pad_top_labels : pads.pad_top;
  const padBottom = pads.pad_bottom;
  const axis = steps * pps;  // px from the max gridline down to the min one
  const width = count * column;
  const height = padTop + axis + padBottom;
  const marker = 14;
  const indexOf = (value) => Math.round((value - min) / step);
  // Every point of the chart, the distractors too: a probe may drag any of them.
  const initial = (value) => params.values.map((v, i) => indexOf(i === target ? value : v));
  const index = initial(state);

  const valueOf = (k) => Number((min + k * step).toFixed(decimals));
  const yOf = (k) => padTop + (steps - k) * pps;  // whole pixels: pps is an integer
  const xOf = (i) => i * column + column / 2;

  const plot = kit.el("div", { class: "fs-chart-plot",
    style: { width: `${width}px`, height: `${height}px` } });
  const gutter = kit.el("div", { class: "fs-chart-gutter", style: { height: `${height}px` } });
  for (let v = min; v <= params.max + 1e-9; v += tick) {
    const k = Math.round((v - min) / step);
    plot.append(kit.el("div", { class: `fs-chart-grid${k === 0 ? " fs-chart-axis" : ""}`,
      style: { top: `${yOf(k)}px` } }));
    gutter.append(kit.el("div", { class: "fs-chart-tick", text: v.toFixed(tickDecimals),
      style: { top: `${yOf(k) - 8}px` } }));
  }
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "fs-chart-svg");
  svg.setAttribute("width", `${width}`);
  svg.setAttribute("height", `${height}`);
  const area = document.createElementNS(SVG, "polygon");
  area.setAttribute("class", "fs-chart-area");
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("class", "fs-chart-line");
  svg.append(area, line);
  plot.append(svg);

  // One column per category, tiling the plot: a press anywhere in a column
  // grabs that column's point. The marker is a square hit target (hit testing
  // follows border-radius); its round dot is drawn by a child.
  const columns = params.labels.map((_, i) => {
    const dot = kit.el("div", { class: "fs-chart-marker",
      style: { width: `${marker}px`, height: `${marker}px`, left: `${column / 2 - marker / 2}px` } },
      kit.el("div", { class: "fs-chart-dot" }));
    const label = kit.el("div", { class: "fs-chart-value" });
    const node = kit.el("div", { class: "fs-chart-column",
      style: { left: `${i * column}px`, width: `${column}px`, height: `${height}px` } },
      ...(params.data_labels ? [label] : []), dot);
    plot.append(node);
    return { node, dot, label };
  });
  const xLabels = kit.el("div", { class: "fs-chart-xlabels", style: { width: `${width}px` } },
    ...params.labels.map((text) => kit.el("div", { text, style: { width: `${column}px` } })));

  host.append(kit.el("div", { class: "fs-card" },
    kit.el("div", { class: "fs-label", text: params.title }),
    kit.el("div", { class: "fs-chart-subtitle", text: params.subtitle }),
    kit.el("div", { class: "fs-chart-body" }, gutter,
      kit.el("div", {}, plot, xLabels))));

  function show() {
    const points = index.map((k, i) => `${xOf(i)},${yOf(k)}`);
    line.setAttribute("points", points.join(" "));
    area.setAttribute("points",
      `${xOf(0)},${yOf(0)} ${points.join(" ")} ${xOf(count - 1)},${yOf(0)}`);
    columns.forEach(({ dot, label }, i) => {
      dot.style.top = `${yOf(index[i]) - marker / 2}px`;
      label.style.top = `${yOf(index[i]) - marker / 2 - 18}px`;
      label.textContent = valueOf(index[i]).toFixed(decimals);
    });
  }
  // The one mapping from a pointer position to a step index, used by the
  // handlers and by the goal-box measurement alike: y alone decides.
  function indexAt(clientY) {
    const zero = plot.getBoundingClientRect().top + yOf(0);
    return Math.min(steps, Math.max(0, Math.round((zero - clientY) / pps)));
  }
  columns.forEach(({ node }, i) => {
    let before = index[i];
    const follow = (event) => { index[i] = indexAt(event.clientY); show(); };
    kit.onDrag(node, { start: (event) => { before = index[i]; follow(event); }, move: follow,
                       end: follow, cancel: () => { index[i] = before; show(); } });
  });
  show();

  return {
    state: () => valueOf(index[target]),
    restore(value) {
      index.splice(0, count, ...initial(value));
      show();
    },
    boxes(goal) {
      const goalIndex = indexOf(goal);
      const core = kit.boxOf(columns[target].node);
      return {
        loc: kit.boxOf(host),
        core,
        goal: kit.largestBox(core, (x, y) => indexAt(y) === goalIndex),
        now: kit.boxOf(columns[target].dot),
      };
    },
  };
});
