"use strict";
// List box: a dropdown whose option list is open; a click on a row selects it.
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
  const list = kit.el("div", { class: "fs-list-options" }, ...rows.values());
  host.style.width = `${params.width}px`;
  host.style.setProperty("--row", `${params.row_height}px`);
  host.append(kit.el("div", { class: "fs-label", text: params.label }), field, list);

  function show() {
    fieldText.textContent = selected;
    for (const [text, row] of rows) row.classList.toggle("fs-list-selected", text === selected);
  }
  show();

  return {
    state: () => selected,
    restore(value) { selected = value; show(); },
    boxes(goal) {
      return { loc: kit.boxOf(host), core: kit.boxOf(list), goal: kit.boxOf(rows.get(goal)),
               now: kit.boxOf(rows.get(selected)) };
    },
  };
});
