"use strict";
// Switch: a settings card of labelled on/off switches, one of them the target.
FineState.define("switch", (host, params, state, kit) => {
  // On a phone each track is a finger-sized hit area (params.hit) with the pill
  // at its right, centred across: the pill keeps its look, the rows grow to fit.
  const pill = { width: 40, height: 24 }, row = 40;
  const touch = params.hit ? {
    track: { width: Math.max(pill.width, params.hit), height: Math.max(pill.height, params.hit) },
    row: Math.max(row, params.hit),
  } : null;
  const trackStyle = touch ? {
    width: `${touch.track.width}px`, height: `${touch.track.height}px`,
    "--fs-switch-x": `${touch.track.width - pill.width}px`,
    "--fs-switch-y": `${(touch.track.height - pill.height) / 2}px`,
  } : {};
  // Every switch of the card, the distractors too: a probe may flip any of them.
  const initial = (target) => params.on.map((value, i) => (i === params.target ? target : value));
  const on = initial(state);
  const rows = params.labels.map((text, i) => {
    // The track is a plain rectangle that takes the clicks; the rounded pill is
    // drawn inside it, so its corners (outside the pill) toggle as well.
    const thumb = kit.el("div", { class: "fs-switch-thumb" });
    const track = kit.el("div", { class: "fs-switch-track", style: trackStyle },
      kit.el("div", { class: "fs-switch-pill" }), thumb);
    const row = kit.el("div", { class: "fs-switch-row",
                                style: touch ? { height: `${touch.row}px` } : {} },
      kit.el("div", { class: "fs-switch-label", text }), track);
    const show = () => row.classList.toggle("fs-switch-on", on[i]);
    kit.onTrusted(track, "click", () => { on[i] = !on[i]; show(); });
    show();
    return { row, track, thumb, show };
  });
  // A card without a title (params.title absent) is a lone settings row of a phone page.
  const title = params.title === undefined ? []
    : [kit.el("div", { class: "fs-label fs-switch-title", text: params.title })];
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    ...title, ...rows.map((r) => r.row)));

  const target = rows[params.target];
  return {
    state: () => on[params.target],
    snapshot: () => on.slice(),  // every switch of the card: a page reads distractors back whole
    restore(value) {
      on.splice(0, on.length, ...initial(value));
      rows.forEach((r) => r.show());
    },
    boxes() {
      const track = kit.boxOf(target.track);
      return { loc: kit.boxOf(target.row), core: track, goal: track, now: kit.boxOf(target.thumb) };
    },
  };
});
