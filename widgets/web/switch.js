"use strict";
// Switch: a settings card of labelled on/off switches, one of them the target.
FineState.define("switch", (host, params, state, kit) => {
  const on = params.on.map((value, i) => (i === params.target ? state : value));
  const rows = params.labels.map((text, i) => {
    // The track is a plain rectangle that takes the clicks; the rounded pill is
    // drawn inside it, so its corners (outside the pill) toggle as well.
    const thumb = kit.el("div", { class: "fs-switch-thumb" });
    const track = kit.el("div", { class: "fs-switch-track" },
      kit.el("div", { class: "fs-switch-pill" }), thumb);
    const row = kit.el("div", { class: "fs-switch-row" },
      kit.el("div", { class: "fs-switch-label", text }), track);
    const show = () => row.classList.toggle("fs-switch-on", on[i]);
    kit.onTrusted(track, "click", () => { on[i] = !on[i]; show(); });
    show();
    return { row, track, thumb };
  });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-switch-title", text: params.title }),
    ...rows.map((r) => r.row)));

  const target = rows[params.target];
  return {
    state: () => on[params.target],
    boxes() {
      const track = kit.boxOf(target.track);
      return { loc: kit.boxOf(target.row), core: track, goal: track, now: kit.boxOf(target.thumb) };
    },
  };
});
