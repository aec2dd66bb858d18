"use strict";
// Slider: the value is set by the pointer's x during a drag, rounded to the step.
FineState.define("slider", (host, params, state, kit) => {
  const { min, step, track: trackLength } = params;
  const steps = Math.round((params.max - min) / step);
  const decimals = (String(step).split(".")[1] || "").length;
  const thumbSize = FineStateMeasures.slider.thumb;
  // A finger's band (params.hit, on a phone) is taller than the thumb drawn in its middle.
  const band = params.hit ?? thumbSize;
  const inset = (band - thumbSize) / 2;
  let index = Math.round((state - min) / step);

  const label = kit.el("div", { class: "fs-label", text: params.label });
  const railTop = { top: `${(band - 4) / 2}px` };  // the 4 px rail, centred
  const rail = kit.el("div", { class: "fs-slider-rail", style: railTop });
  const fill = kit.el("div", { class: "fs-slider-fill", style: railTop });
  const thumb = kit.el("div", { class: "fs-slider-thumb", style: { top: `${inset}px` } });
  // The hit band: the rail plus half a thumb beyond each end, `band` tall. Its
  // margin keeps the thumb where a mouse-sized band puts it, as far as there is margin.
  const hit = kit.el("div", { class: "fs-slider-hit", style: {
    width: `${trackLength + thumbSize}px`, height: `${band}px`,
    margin: `${Math.max(0, 10 - inset)}px 0` } },
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
    restore(value) { index = Math.round((value - min) / step); show(); },
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
