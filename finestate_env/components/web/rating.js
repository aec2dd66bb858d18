"use strict";
// Rating: a click on a star's hit element sets that item's rating. 5-star rows
// have two hit elements per star (left half k - 0.5, right half k), 10-star rows
// one; the gaps between stars belong to the row, which has no handler.
FineState.define("rating", (host, params, state, kit) => {
  const { stars, step, size, gap } = params;
  // A hit element's height: the star's own, or a finger's on a phone (centred on the star).
  const hitHeight = params.hit ?? size;
  // Every item's rating, the distractors too: a probe may change any of them.
  const initial = (target) =>
    params.values.map((value, i) => (i === params.target ? target : value));
  const values = initial(state);
  // The one mapping from a hit element to a value: [left offset, width, value]
  // of each hit element of star k (1-based), used by the handlers and by boxes().
  const parts = (k) => (step === 0.5
    ? [[0, size / 2, k - 0.5], [size / 2, size / 2, k]]
    : [[0, size, k]]);
  const caption = (value) => (value === 0 ? "Not rated" : `${value} / ${stars}`);

  const rows = params.labels.map((label, i) => {
    const hits = new Map();  // value -> hit element
    const fills = [];
    const starEls = Array.from({ length: stars }, (_, j) => {
      const fill = kit.el("div", { class: "fs-rate-fill" },
        kit.el("div", { class: "fs-rate-shape fs-rate-on" }));
      fills.push(fill);
      const star = kit.el("div", { class: "fs-rate-star" },
        kit.el("div", { class: "fs-rate-shape" }), fill);
      for (const [left, width, value] of parts(j + 1)) {
        // Transparent and square: the whole half (or star) box takes the click.
        const hit = kit.el("div", { class: "fs-rate-hit",
                                    style: { left: `${left}px`, width: `${width}px` } });
        kit.onTrusted(hit, "click", () => { values[i] = value; show(); });
        hits.set(value, hit);
        star.append(hit);
      }
      return star;
    });
    const starsRow = kit.el("div", { class: "fs-rate-stars", style: { gap: `${gap}px` } },
                            ...starEls);
    const text = kit.el("div", { class: "fs-rate-caption" });
    const name = kit.el("div", { class: "fs-rate-label", text: label,
                                 style: { width: `${params.label_width}px` } });
    const row = params.layout === "inline"
      ? kit.el("div", { class: "fs-rate-row fs-rate-inline" }, name, starsRow, text)
      : kit.el("div", { class: "fs-rate-row fs-rate-stacked" },
        kit.el("div", { class: "fs-rate-head" }, name, text), starsRow);
    function show() {
      fills.forEach((fill, j) => {
        const part = Math.min(1, Math.max(0, values[i] - j));  // 0, 0.5 or 1
        fill.style.width = `${part * size}px`;
      });
      text.textContent = caption(values[i]);
    }
    show();
    return { row, starsRow, starEls, hits, show };
  });
  host.style.setProperty("--rate-size", `${size}px`);
  host.style.setProperty("--rate-hit", `${hitHeight}px`);
  const card = kit.el("div", { class: "fs-card fs-rate-card",
                               style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-rate-title", text: params.title }),
    ...rows.map((r) => r.row));
  host.append(card);

  const target = rows[params.target];
  return {
    state: () => values[params.target],
    snapshot: () => values.slice(),  // every row: a page reads distractors back whole
    restore(value) {
      values.splice(0, values.length, ...initial(value));
      rows.forEach((r) => r.show());
    },
    boxes(goal) {
      const value = values[params.target];
      return {
        loc: kit.boxOf(target.row),
        core: kit.boxOf(target.starsRow),
        // A half (or whole) star is bordered by the other half, a neighbour, a gap
        // or the row's edge: its box is its region.
        goal: kit.boxOf(target.hits.get(goal)),
        now: kit.boxOf(value === 0 ? target.starEls[0] : target.hits.get(value)),
      };
    },
  };
});
