"use strict";
// Table column: dragging a column's resize handle sets that column's width from
// the pointer's x, absolutely, on the table's step; only the target's width is the state.
FineState.define("table_column", (host, params, state, kit) => {
  const { step, target, handle: handleWidth } = params;
  let widths;  // every column's, set by reset: a probe may drag any handle
  const headers = params.headers;

  const cells = headers.map((text, i) => {
    const label = kit.el("span", { class: "fs-tc-head-text", text });
    const sort = i === params.sorted ? [kit.el("span", { class: "fs-tc-sort" })] : [];
    // The handle straddles the right border; it is a child of the header cell
    // but the cell does not clip it, and it stacks above the next cell.
    const handle = kit.el("div", { class: "fs-tc-handle",
      style: { width: `${handleWidth}px`, right: `${-Math.floor(handleWidth / 2)}px` } },
      kit.el("span", { class: "fs-tc-grip" }));
    const cell = kit.el("div", {
      class: `fs-tc-head${params.numeric[i] ? " fs-tc-num" : ""}`,
      style: { height: `${params.header_height}px`, lineHeight: `${params.header_height}px` },
    }, label, ...sort, handle);
    return { cell, handle };
  });
  const headerRow = kit.el("div", { class: "fs-tc-header",
    style: { width: `${params.table_width}px`, height: `${params.header_height}px` } },
    ...cells.map((c) => c.cell));
  const bodyCells = [];  // per column, its body cells
  const rows = params.cells.map((values) => kit.el("div", { class: "fs-tc-row",
    style: { width: `${params.table_width}px`, height: `${params.row_height}px`,
             lineHeight: `${params.row_height}px` } },
    ...values.map((value, i) => {
      const cell = kit.el("div", { class: `fs-tc-cell${params.numeric[i] ? " fs-tc-num" : ""}`,
                                   text: value });
      (bodyCells[i] ||= []).push(cell);
      return cell;
    })));
  const status = kit.el("span", { class: "fs-tc-width" });
  host.append(kit.el("div", { class: "fs-card fs-tc-card" },
    kit.el("div", { class: "fs-label fs-tc-title", text: params.title }),
    kit.el("div", { class: "fs-tc-table" }, headerRow, ...rows),
    kit.el("div", { class: "fs-tc-footer" },
      kit.el("span", { text: `${params.cells.length} rows` }), status)));

  function show() {
    widths.forEach((w, i) => {
      cells[i].cell.style.width = `${w}px`;
      for (const cell of bodyCells[i] || []) cell.style.width = `${w}px`;
    });
    status.textContent = `${headers[target]}: ${widths[target]} px`;
  }
  // Limits per column: the target's are the instance's. Another column may
  // shrink to 40 px and grow into the header space left free with the target
  // at its widest, so no column ever pushes the table past its header.
  function limits(i) {
    if (i === target) return [params.min, params.max];
    const others = widths.reduce((sum, w, k) => sum + (k === target ? 0 : w), 0);
    const free = Math.max(0, params.table_width - others - params.max - handleWidth);
    return [Math.min(40, widths[i]), widths[i] + free];
  }
  // The one mapping from the pointer's x to a width, used by the handlers and
  // by the goal-box measurement alike: absolute from the column's left edge.
  function widthAt(clientX, left, [lo, hi]) {
    const width = Math.round((clientX - left) / step) * step;
    return Math.min(hi, Math.max(lo, width));
  }
  const leftOf = (i) => cells[i].cell.getBoundingClientRect().left;

  cells.forEach(({ handle }, i) => {
    let left = 0, range = null, before = 0;
    const follow = (event) => { widths[i] = widthAt(event.clientX, left, range); show(); };
    kit.onDrag(handle, {
      start() { left = leftOf(i); range = limits(i); before = widths[i]; },
      move: follow,
      end: follow,
      cancel() { widths[i] = before; show(); },
    });
  });
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) {
    widths = params.widths.map((w, i) => (i === target ? value : w));
    show();
  }
  reset(state);

  return {
    state: () => widths[target],
    restore: reset,
    boxes(goal) {
      const core = kit.boxOf(headerRow);
      const left = leftOf(target), range = limits(target);
      return {
        loc: kit.boxOf(host),
        core,
        // widthAt depends on x alone: the band of the header whose width is the goal.
        goal: kit.largestBox(core, (x) => widthAt(x, left, range) === goal),
        now: kit.boxOf(cells[target].handle),
      };
    },
  };
});
