"use strict";
// Resizable pane: an editor workspace whose sidebars/panel are resized by dragging dividers.
FineState.define("resizable_pane", (host, params, state, kit) => {
  const { width, height, handle: handleSize } = params;
  // The resizable panes: the named one first, then the distractor sidebar (if
  // any), whose size a probe may change too. Sizes are set by reset.
  const panes = [{ side: params.side, name: params.pane,
                   min: params.min, max: params.max, step: params.step }];
  if (params.other) {
    const [side, , min, max, step] = params.other;
    panes.push({ side, name: params.other_pane, min, max, step });
  }
  const bySide = (side) => panes.find((pane) => pane.side === side);

  const header = (title, ...extra) => kit.el("div", { class: "fs-pane-head" },
    kit.el("span", { text: title.toUpperCase() }), ...extra);
  function treeView() {
    const rows = params.tree.map(([depth, name, folder]) => kit.el("div", {
      class: `fs-pane-row${folder ? " fs-pane-folder" : ""}`,
      style: { paddingLeft: `${10 + 12 * depth}px` } },
      kit.el("span", { class: "fs-pane-icon" }), kit.el("span", { class: "fs-pane-text", text: name })));
    return rows;
  }
  function symbolView() {
    return params.symbols.map((name) => kit.el("div", { class: "fs-pane-row" },
      kit.el("span", { class: "fs-pane-symbol" }), kit.el("span", { class: "fs-pane-text", text: name })));
  }
  function sidePane(pane) {
    const content = pane.side === "left" ? treeView() : symbolView();
    return kit.el("div", { class: `fs-pane-side fs-pane-side-${pane.side}` },
      header(pane.name), kit.el("div", { class: "fs-pane-list" }, ...content));
  }
  const tabs = kit.el("div", { class: "fs-pane-tabs" }, ...params.tabs.map((name, i) =>
    kit.el("div", { class: `fs-pane-tab${i === 0 ? " fs-pane-tab-active" : ""}`, text: name })));
  const code = params.code.slice(params.code_start).map((line, i) => kit.el("div", {
    class: "fs-pane-line" }, kit.el("span", { class: "fs-pane-gutter", text: `${params.code_start + i + 1}` }),
    kit.el("span", { class: "fs-pane-code", text: line })));
  const editor = kit.el("div", { class: "fs-pane-editor" }, tabs,
    kit.el("div", { class: "fs-pane-source" }, ...code));
  const column = kit.el("div", { class: "fs-pane-column" }, editor);
  const elements = new Map();  // pane -> its element
  const bottom = bySide("bottom");
  if (bottom) {
    const others = ["Problems", "Output", "Terminal", "Debug console"].filter((n) => n !== bottom.name);
    const panel = kit.el("div", { class: "fs-pane-bottom" },
      kit.el("div", { class: "fs-pane-head" }, kit.el("span", { class: "fs-pane-head-active",
        text: bottom.name.toUpperCase() }), ...others.slice(0, 2).map((n) =>
        kit.el("span", { text: n.toUpperCase() }))),
      kit.el("div", { class: "fs-pane-output" }, ...params.output.map((line) =>
        kit.el("div", { class: "fs-pane-out-line", text: line }))));
    column.append(panel);
    elements.set(bottom, panel);
  }
  const row = kit.el("div", { class: "fs-pane-rowlayout" });
  const left = bySide("left"), right = bySide("right");
  if (left) { elements.set(left, sidePane(left)); row.append(elements.get(left)); }
  row.append(column);
  if (right) { elements.set(right, sidePane(right)); row.append(elements.get(right)); }

  // One handle per resizable pane, centred on the pane's divider line.
  const handles = new Map(panes.map((pane) => {
    const vertical = pane.side !== "bottom";  // a vertical divider line
    const gripLength = 28, gripWidth = handleSize % 2 ? 3 : 4;
    const grip = kit.el("div", { class: "fs-pane-grip", style: vertical
      ? { left: `${(handleSize - gripWidth) / 2}px`, top: `calc(50% - ${gripLength / 2}px)`,
          width: `${gripWidth}px`, height: `${gripLength}px` }
      : { top: `${(handleSize - gripWidth) / 2}px`, left: `calc(50% - ${gripLength / 2}px)`,
          height: `${gripWidth}px`, width: `${gripLength}px` } });
    return [pane, kit.el("div", { class: `fs-pane-handle fs-pane-handle-${vertical ? "v" : "h"}`,
      style: vertical ? { width: `${handleSize}px` } : { height: `${handleSize}px` } },
    kit.el("div", { class: "fs-pane-line-mark" }), grip)];
  }));
  const split = kit.el("div", { class: "fs-pane-split", style: {
    width: `${width}px`, height: `${height}px` } }, row, ...handles.values());
  host.append(kit.el("div", { class: "fs-card" },
    kit.el("div", { class: "fs-pane-title" },
      kit.el("div", { class: "fs-label", text: params.project }),
      kit.el("div", { class: "fs-pane-branch", text: "main" })),
    split));

  const before = Math.floor(handleSize / 2);  // handle pixels before the divider line
  function show() {
    for (const pane of panes) {
      const element = elements.get(pane), handle = handles.get(pane);
      if (pane.side === "bottom") {
        element.style.height = `${pane.size}px`;
        const x = left ? left.size : 0;
        Object.assign(handle.style, { top: `${height - pane.size - before}px`,
          left: `${x}px`, width: `${width - x}px` });
      } else {
        element.style.width = `${pane.size}px`;
        const line = pane.side === "left" ? pane.size : width - pane.size;
        Object.assign(handle.style, { left: `${line - before}px`, top: "0px", height: `${height}px` });
      }
    }
  }
  // The one mapping from a pointer position to a pane's size, used by the
  // handlers and by boxes(goal): absolute, the distance from the container's
  // edge on the pane's side, snapped to the pane's step and clamped.
  function sizeAt(pane, x, y) {
    const rect = split.getBoundingClientRect();
    const distance = { left: x - rect.left, right: rect.right - x, bottom: rect.bottom - y }[pane.side];
    const snapped = Math.round(distance / pane.step) * pane.step;
    return Math.min(pane.max, Math.max(pane.min, snapped));
  }
  for (const pane of panes) {
    const handle = handles.get(pane);
    let start = pane.size;
    const follow = (event) => { pane.size = sizeAt(pane, event.clientX, event.clientY); show(); };
    kit.onDrag(handle, {
      start() { start = pane.size; handle.classList.add("fs-pane-active"); },
      move: follow,
      end(event) { follow(event); handle.classList.remove("fs-pane-active"); },
      cancel() { pane.size = start; show(); handle.classList.remove("fs-pane-active"); },
    });
  }
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) {
    panes[0].size = value;
    if (params.other) panes[1].size = params.other[1];
    for (const handle of handles.values()) handle.classList.remove("fs-pane-active");
    show();
  }
  reset(state);

  const target = panes[0];
  return {
    state: () => target.size,
    restore: reset,
    boxes(goal) {
      const core = kit.boxOf(split);
      return {
        loc: kit.boxOf(host),
        core,
        // sizeAt depends on one coordinate only: a band across the container.
        goal: kit.largestBox(core, (x, y) => sizeAt(target, x, y) === goal),
        now: kit.boxOf(handles.get(target)),
      };
    },
  };
});
