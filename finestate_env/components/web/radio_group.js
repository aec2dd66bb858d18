"use strict";
// Radio group: a question and its options. Each option is one square-cornered
// row (circle, label, detail) that selects it when clicked; rows touch each
// other, so their union is one rectangle and each row is its option's region.
FineState.define("radio_group", (host, params, state, kit) => {
  const { circle } = params;
  const horizontal = params.layout === "horizontal";
  let selected = state;  // an option's label
  const dot = Math.round(circle / 2) - (circle / 2) % 2;  // even, so it centres on whole pixels
  const options = params.options.map((text, i) => {
    const ring = kit.el("div", { class: "fs-radio-circle",
                                 style: { width: `${circle}px`, height: `${circle}px` } },
      kit.el("div", { class: "fs-radio-dot", style: { width: `${dot}px`, height: `${dot}px` } }));
    const label = kit.el("div", { class: "fs-radio-text", text });
    const row = kit.el("div", { class: "fs-radio-option", style: { height: `${params.row}px` } },
      ring, label,
      ...(params.details ? [kit.el("div", { class: "fs-radio-detail", text: params.details[i] })]
        : []));
    kit.onTrusted(row, "click", () => { selected = text; show(); });
    return { text, row, ring, label };
  });
  const list = kit.el("div", { class: `fs-radio-options fs-radio-${params.layout}` },
                      ...options.map((o) => o.row));
  const card = kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-radio-question", text: params.question }), list,
    ...(params.hint ? [kit.el("div", { class: "fs-value fs-radio-hint", text: params.hint })]
      : []));
  host.append(card);
  // Side by side, each row is as wide as its text: round the text up to whole
  // pixels (theme fonts differ; they are local, so laid out at once) so that
  // every row's edges fall on pixel boundaries. The card grows if it must.
  if (horizontal) {
    for (const { label } of options) {
      label.style.width = `${Math.ceil(label.getBoundingClientRect().width)}px`;
    }
    card.style.width = `${Math.max(params.width, list.offsetWidth + 34)}px`;
  }

  function show() {
    for (const o of options) o.row.classList.toggle("fs-radio-selected", o.text === selected);
  }
  show();
  const byText = (text) => options.find((o) => o.text === text);

  return {
    state: () => selected,
    restore(label) { selected = label; show(); },
    boxes(goal) {
      return {
        loc: kit.boxOf(card),
        core: kit.boxOf(list),
        goal: kit.boxOf(byText(goal).row),
        now: kit.boxOf(byText(selected).ring),
      };
    },
  };
});
