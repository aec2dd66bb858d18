"use strict";
// Drag reorder: a row dragged by the pointer drops at an index set by the pointer's y.
FineState.define("drag_reorder", (host, params, state, kit) => {
  const { row_height: rowHeight, gap } = params;
  const pitch = rowHeight + gap;
  let order;  // set by reset

  const rows = new Map(state.map((label) => [label, kit.el("div", {
    class: "fs-reorder-row", style: { height: `${rowHeight}px` } },
    kit.el("span", { class: "fs-reorder-grip" }),
    kit.el("span", { class: "fs-reorder-text", text: label }))]));
  const list = kit.el("div", { class: "fs-reorder-list", style: { rowGap: `${gap}px` } });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-reorder-title", text: params.title }), list));

  // Rows at rest, in order: no drag lift, no slide. Reordering moves the rows
  // that exist; none is built again.
  function show() {
    for (const row of rows.values()) {
      row.style.transform = "";
      row.classList.remove("fs-reorder-dragging");
    }
    list.replaceChildren(...order.map((label) => rows.get(label)));
  }
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) { order = value.slice(); show(); }
  // Row midpoints of the items other than `label`, in list order: the layout
  // a drag of `label` is judged against, recorded before anything moves.
  function layoutFor(label) {
    return order.filter((other) => other !== label).map((other) => {
      const rect = rows.get(other).getBoundingClientRect();
      return rect.top + rect.height / 2;
    });
  }
  // The one drop rule, used by the handlers and by the goal-box measurement:
  // the new index is the number of other rows whose midpoint is above y.
  const dropIndex = (midpoints, clientY) => midpoints.filter((mid) => mid < clientY).length;
  const without = (label) => order.filter((other) => other !== label);

  for (const [label, row] of rows) {
    let midpoints = null, startY = 0;
    // The other rows slide to open the slot the row would drop into.
    const preview = (event) => {
      row.style.transform = `translateY(${event.clientY - startY}px)`;
      const slot = dropIndex(midpoints, event.clientY);
      without(label).forEach((other, k) => {
        const shift = (k + (k >= slot) - order.indexOf(other)) * pitch;
        rows.get(other).style.transform = shift ? `translateY(${shift}px)` : "";
      });
    };
    kit.onDrag(row, {
      start(event) {
        midpoints = layoutFor(label);
        startY = event.clientY;
        row.classList.add("fs-reorder-dragging");
        preview(event);
      },
      move: preview,
      end(event) {
        const next = without(label);
        next.splice(dropIndex(midpoints, event.clientY), 0, label);
        order = next;
        show();
      },
      cancel: show,  // the browser took the gesture over: snap back, order unchanged
    });
  }
  reset(state);

  return {
    state: () => order.slice(),
    restore: reset,
    boxes(goal) {
      const item = params.item;
      const goalIndex = goal.indexOf(item);
      const midpoints = layoutFor(item);
      const core = kit.boxOf(list);
      return {
        loc: kit.boxOf(host),
        core,
        // dropIndex depends on y alone: the band of y that drops the item at its goal index.
        goal: kit.largestBox(core, (x, y) => dropIndex(midpoints, y) === goalIndex),
        now: kit.boxOf(rows.get(item)),
      };
    },
  };
});
