"use strict";
// List box: a dropdown whose option list is open; a click on a row selects it.
// With `page` (a far goal, episodes of several gestures) the list shows `page` options
// at a time between a "more above" and a "more below" row, each turning one page.
FineState.define("list_box", (host, params, state, kit) => {
  let selected = state;  // the selected option's text
  const fieldText = kit.el("div", { class: "fs-list-text" });
  // The field only shows the selection; the list is already open and stays so.
  const field = kit.el("div", { class: "fs-list-field" }, fieldText,
    kit.el("div", { class: "fs-list-caret" }));
  const rows = new Map();  // option text -> row
  for (const text of params.options) {
    // Full-width square rows tile the list: a row's box is exactly its region.
    const row = kit.el("div", { class: "fs-list-row" },
      kit.el("div", { class: "fs-list-check" }),
      kit.el("div", { class: "fs-list-option", text }));
    kit.onTrusted(row, "click", () => { selected = text; show(); });
    rows.set(text, row);
  }
  const perPage = params.page;
  const pages = perPage ? Math.ceil(params.options.length / perPage) : 1;
  const pageOf = (text) => (perPage ? Math.floor(params.options.indexOf(text) / perPage) : 0);
  let shownPage = pageOf(selected);
  // The arrow rows: a click turns a page, never the state (nothing past either end).
  const arrow = (glyph, delta) => {
    const row = kit.el("div", { class: "fs-list-row fs-list-more" },
      kit.el("div", { class: "fs-list-arrow", text: glyph }));
    kit.onTrusted(row, "click", () => {
      const next = shownPage + delta;
      if (next >= 0 && next < pages) { shownPage = next; show(); }
    });
    return row;
  };
  const up = perPage ? arrow("\u25b2", -1) : null;
  const down = perPage ? arrow("\u25bc", 1) : null;
  // Paged, the rows sit in a window of `page` rows between the arrows; else in the list.
  const options = perPage
    ? kit.el("div", { class: "fs-list-rows", style: { height: `${perPage * params.row_height}px` } },
             ...rows.values())
    : null;
  const list = kit.el("div", { class: "fs-list-options" },
                      ...(perPage ? [up, options, down] : rows.values()));
  host.style.width = `${params.width}px`;
  host.style.setProperty("--row", `${params.row_height}px`);
  host.append(kit.el("div", { class: "fs-label", text: params.label }), field, list);

  function show() {
    fieldText.textContent = selected;
    for (const [text, row] of rows) {
      row.classList.toggle("fs-list-selected", text === selected);
      row.hidden = pageOf(text) !== shownPage;
    }
    if (perPage) {
      up.classList.toggle("fs-list-off", shownPage === 0);
      down.classList.toggle("fs-list-off", shownPage === pages - 1);
    }
  }
  show();

  return {
    state: () => selected,
    restore(value) { selected = value; shownPage = pageOf(value); show(); },
    boxes(goal) {
      // A goal on another page: the arrow row toward it, the next gesture of the route;
      // the selection, once its page is turned away, shows in the field only.
      const shown = (text) => pageOf(text) === shownPage;
      const toward = pageOf(goal) > shownPage ? down : up;
      return { loc: kit.boxOf(host), core: kit.boxOf(options || list),
               goal: kit.boxOf(shown(goal) ? rows.get(goal) : toward),
               now: kit.boxOf(shown(selected) ? rows.get(selected) : field) };
    },
    // Gestures the route still takes: a click per page to turn, then the option's.
    reach(goal) {
      return goal === selected ? 0 : Math.abs(pageOf(goal) - shownPage) + 1;
    },
  };
});
