"use strict";
// Colour picker: a click on a swatch selects its colour; the gaps between
// swatches belong to the grid, which has no handler, so a click there does nothing.
FineState.define("color_picker", (host, params, state, kit) => {
  const { columns, swatch, gap } = params;
  let selected = state;  // "#rrggbb", lowercase
  const swatches = new Map();  // colour -> swatch

  const chip = kit.el("div", { class: "fs-color-chip" });
  const code = kit.el("div", { class: "fs-color-code" });
  const button = kit.el("div", { class: "fs-color-button" }, chip, code,
                        kit.el("div", { class: "fs-color-caret" }));
  const grid = kit.el("div", { class: "fs-color-grid", style: {
    gridTemplateColumns: `repeat(${columns}, ${swatch}px)`, gridAutoRows: `${swatch}px`,
    gap: `${gap}px` } },
    ...params.swatches.map(([name, colour]) => {
      const node = kit.el("div", { class: "fs-color-swatch", "aria-label": name,
                                   style: { background: colour } });
      kit.onTrusted(node, "click", () => { selected = colour; show(); });
      swatches.set(colour, node);
      return node;
    }));
  host.append(kit.el("div", { class: "fs-label", text: params.label }), button,
              kit.el("div", { class: "fs-color-popup" }, grid));

  function show() {
    chip.style.background = selected;
    code.textContent = selected;
    for (const [colour, node] of swatches) {
      node.classList.toggle("fs-color-selected", colour === selected);
    }
  }
  show();

  return {
    state: () => selected,
    restore(value) { selected = value; show(); },
    boxes(goal) {
      return {
        loc: kit.boxOf(host),
        core: kit.boxOf(grid),
        // A swatch is surrounded by gaps or the grid's edge: its box is its region.
        goal: kit.boxOf(swatches.get(goal)),
        now: kit.boxOf(swatches.get(selected)),
      };
    },
  };
});
