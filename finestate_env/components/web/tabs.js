"use strict";
// Tabs: a click on a tab makes it active; the bar's gaps and padding and the
// content panel have no handler, so a click there does nothing.
FineState.define("tabs", (host, params, state, kit) => {
  let active = state;  // the active tab's label
  const tabs = new Map();  // label -> tab (the square hit element)

  // On a phone a short label's tab still gets a finger's width (params.hit).
  const least = params.hit ? { minWidth: `${params.hit}px` } : {};
  const barClass = params.gap ? "fs-tab-bar" : "fs-tab-bar fs-tab-joined";
  const bar = kit.el("div", { class: barClass, style: { gap: `${params.gap}px` } },
    ...params.labels.map((label) => {
      const tab = kit.el("div", { class: params.fill ? "fs-tab fs-tab-fill" : "fs-tab",
                                  style: { height: `${params.tab_height}px`,
                                           padding: `0 ${params.pad}px`, ...least } },
                         kit.el("span", { class: "fs-tab-text", text: label }));
      kit.onTrusted(tab, "click", () => { active = label; show(); });
      tabs.set(label, tab);
      return tab;
    }));
  const heading = kit.el("div", { class: "fs-tab-heading" });
  const lines = Array.from({ length: params.lines }, () => kit.el("div", { class: "fs-tab-line" }));
  const panel = kit.el("div", { class: "fs-tab-panel" }, heading, ...lines);
  const card = kit.el("div", { class: `fs-card fs-tab-card fs-tab-${params.style}`,
                               style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-tab-title", text: params.title }), bar, panel);
  host.append(card);
  // Whole-pixel tab widths, so that every tab edge (a goal box edge) falls on a
  // pixel boundary: text advances are fractional.
  const items = [...tabs.values()];
  if (params.fill) {
    const style = getComputedStyle(bar);
    const free = bar.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - params.gap * (items.length - 1);
    const base = Math.floor(free / items.length);
    items.forEach((tab, i) => {
      tab.style.flex = "none";
      tab.style.width = `${base + (i < free - base * items.length ? 1 : 0)}px`;
    });
  } else {
    const widths = items.map((tab) => Math.ceil(tab.getBoundingClientRect().width));
    items.forEach((tab, i) => { tab.style.width = `${widths[i]}px`; });
  }

  function show() {
    for (const [label, tab] of tabs) tab.classList.toggle("fs-tab-on", label === active);
    const content = params.contents[params.labels.indexOf(active)];
    heading.textContent = content.heading;
    lines.forEach((line, i) => { line.textContent = content.lines[i] || ""; });
  }
  show();

  return {
    state: () => active,
    restore(label) { active = label; show(); },
    boxes(goal) {
      return {
        loc: kit.boxOf(card),
        core: kit.boxOf(bar),
        // A tab is bordered by gaps, bar padding or its neighbours: its box is its region.
        goal: kit.boxOf(tabs.get(goal)),
        now: kit.boxOf(tabs.get(active)),
      };
    },
  };
});
