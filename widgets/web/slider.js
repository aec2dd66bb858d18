"use strict";
// Slider: the value is set by the pointer's x during a drag, rounded to the step.
FineState.define("slider", (host, params, state, kit) => {
  const { min, step, track: trackLength } = params;
  const steps = Math.round((params.max - min) / step);
  const decimals = (String(step).split(".")[1] || "").length;
  const thumbSize = 20;
  let index = Math.round((state - min) / step);

  const label = kit.el("div", { class: "fs-label", text: params.label });
  const rail = kit.el("div", { class: "fs-slider-rail" });
  const fill = kit.el("div", { class: "fs-slider-fill" });
  const thumb = kit.el("div", { class: "fs-slider-thumb" });
  // The hit band: the rail plus half a thumb beyond each end, as tall as the thumb.
  const hit = kit.el("div", { class: "fs-slider-hit",
    style: { width: `${trackLength + thumbSize}px`, height: `${thumbSize}px` } },
    rail, fill, thumb);
  const readout = kit.el("div", { class: "fs-value" });
  host.append(kit.el("div", { class: "fs-card" }, label, hit, readout));

  const valueOf = (k) => Number((min + k * step).toFixed(decimals));
  function show() {
    const x = (index / steps) * trackLength;  // thumb centre, relative to the rail start
    thumb.style.left = `${x}px`;
    fill.style.width = `${x}px`;
    readout.textContent = `${valueOf(index).toFixed(decimals)}${params.unit}`;
  }
  const indexAt = kit.onTrackDrag(hit, rail, trackLength, steps, {
    get: () => index, set: (k) => { index = k; show(); } });
  show();

  return {
    state: () => valueOf(index),
    boxes(goal) {
      const goalIndex = Math.round((goal - min) / step);
      const core = kit.boxOf(hit);
      return {
        loc: kit.boxOf(host),
        core,
        // indexAt depends on x alone: the band of x whose index is the goal's.
        goal: kit.largestBox(core, (x) => indexAt(x) === goalIndex),
        now: kit.boxOf(thumb),
      };
    },
  };
});
