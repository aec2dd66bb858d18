"use strict";
// Checkbox: a card of labelled checkboxes. Each item's square, the gap after it
// and its label text are one square-cornered element (as an HTML <label> would
// be): a click anywhere on it toggles that item. The state is the whole group.
FineState.define("checkbox", (host, params, state, kit) => {
  const { box } = params;
  // On a phone each clickable element is finger-sized (params.hit) around the
  // square and text it shows; a desktop keeps the stylesheet's 24 px height.
  const itemStyle = params.hit ? { height: `${params.hit}px`, minWidth: `${params.hit}px` } : {};
  const initial = (labels) => params.labels.map((label) => labels.includes(label));
  const checked = initial(state);
  // The tick: a rotated L drawn inside the square, in whole pixels.
  const tick = { width: Math.round(box * 0.3), height: Math.round(box * 0.55) };
  const items = params.labels.map((text, i) => {
    const mark = kit.el("div", { class: "fs-checkbox-mark", style: {
      width: `${tick.width}px`, height: `${tick.height}px`,
      left: `${Math.round((box - tick.width) / 2) - 2}px`,
      top: `${Math.round((box - tick.height) / 2) - 3}px` } });
    const square = kit.el("div", { class: "fs-checkbox-box",
                                   style: { width: `${box}px`, height: `${box}px` } }, mark);
    const label = kit.el("div", { class: "fs-checkbox-text", text });
    const item = kit.el("div", { class: "fs-checkbox-item", style: itemStyle }, square, label);
    const row = kit.el("div", { class: "fs-checkbox-row", style: { height: `${params.row}px` } },
      item, ...(params.counts ? [kit.el("div", { class: "fs-checkbox-count",
                                                 text: String(params.counts[i]) })] : []));
    const show = () => row.classList.toggle("fs-checkbox-on", checked[i]);
    kit.onTrusted(item, "click", () => { checked[i] = !checked[i]; show(); });
    show();
    return { row, item, square, label, show };
  });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-checkbox-title", text: params.title }),
    ...(params.hint ? [kit.el("div", { class: "fs-value fs-checkbox-hint", text: params.hint })]
      : []),
    ...items.map((it) => it.row)));
  // Text widths are fractional and differ between theme fonts (all local, so
  // laid out at once): round each label up to whole pixels, so that every
  // clickable element's edges fall on pixel boundaries.
  for (const { label } of items) {
    label.style.width = `${Math.ceil(label.getBoundingClientRect().width)}px`;
  }
  // A phone's finger-sized items touch row to row: all are as wide as the widest,
  // or a tap on a narrow item's corner would be moved (Blink's touch adjustment)
  // onto the wider neighbour that covers more of the finger.
  if (params.hit) {
    const widest = Math.max(...items.map(({ item }) => item.getBoundingClientRect().width));
    for (const { item } of items) item.style.width = `${widest}px`;
  }

  const target = items[params.target];
  return {
    state: () => params.labels.filter((_, i) => checked[i]).sort(),
    restore(labels) {
      checked.splice(0, checked.length, ...initial(labels));
      items.forEach((it) => it.show());
    },
    boxes() {
      const item = kit.boxOf(target.item);
      return { loc: kit.boxOf(target.row), core: item, goal: item,
               now: kit.boxOf(target.square) };
    },
  };
});
