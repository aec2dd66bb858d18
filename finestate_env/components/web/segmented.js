"use strict";
// Segmented control: one or two labelled groups of equal-width segments; a
// click on a segment selects it. Segments are square-cornered and laid edge to
// edge: the rounded pill is drawn behind them (pointer-events: none), the
// selected fill and the dividers inside them.
FineState.define("segmented", (host, params, state, kit) => {
  // Every group's selection, the distractors too: a probe may change any of them.
  const initial = (target) =>
    params.selected.map((value, g) => (g === params.target ? target : value));
  const selected = initial(state);
  const groups = params.groups.map((group, g) => {
    const items = group.segments.map((text) => {
      const node = kit.el("div", { class: "fs-seg-item", style: {
        width: `${group.segment}px`, height: `${params.height}px`,
        lineHeight: `${params.height}px` } },
        kit.el("div", { class: "fs-seg-fill" }), kit.el("div", { class: "fs-seg-text", text }));
      kit.onTrusted(node, "click", () => { selected[g] = text; show(); });
      return { text, node };
    });
    const row = kit.el("div", { class: "fs-seg-row" }, ...items.map((it) => it.node));
    const wrap = kit.el("div", { class: "fs-seg-group" },
      kit.el("div", { class: "fs-seg-label", text: group.label }), row);
    return { items, row, wrap };
  });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    ...(params.title ? [kit.el("div", { class: "fs-label fs-seg-title", text: params.title })]
      : []),
    ...groups.map((group) => group.wrap)));

  function show() {
    groups.forEach((group, g) => {
      for (const it of group.items) it.node.classList.toggle("fs-seg-selected", it.text === selected[g]);
    });
  }
  show();

  const target = groups[params.target];
  const node = (text) => target.items.find((it) => it.text === text).node;
  return {
    state: () => selected[params.target],
    snapshot: () => selected.slice(),  // every group: a page reads distractors back whole
    restore(value) {
      selected.splice(0, selected.length, ...initial(value));
      show();
    },
    boxes(goal) {
      return {
        loc: kit.boxOf(target.wrap),
        core: kit.boxOf(target.row),
        goal: kit.boxOf(node(goal)),
        now: kit.boxOf(node(selected[params.target])),
      };
    },
  };
});
