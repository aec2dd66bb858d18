"use strict";
// Knob: the value is set by the pointer's angle around the dial centre during a drag.
FineState.define("knob", (host, params, state, kit) => {
  const { min, step, radius } = params;
  const steps = Math.round((params.max - min) / step);
  const decimals = (String(step).split(".")[1] || "").length;
  const sweep = 135;  // degrees either side of the top; the bottom 90 degrees are a gap
  // Near the centre the angle swings wildly with a pixel of motion, so it is ignored.
  const deadRadius = radius / 4;
  const tipDistance = Math.round(radius * 0.72);
  // The indicator tip: a small dot (measures.js) centred in what a press grabs, a finger's
  // size on a phone (params.grab). Presses on it reach the dial, its parent.
  const tipDot = FineStateMeasures.knob.tip;
  const grab = params.grab ?? tipDot;
  const ring = 14;  // room around the dial for the tick marks
  const face = 2 * radius + 2 * ring;
  const indexOf = (value) => Math.round((value - min) / step);
  let index = indexOf(state);

  const angleOf = (k) => -sweep + (2 * sweep * k) / steps;
  const ticks = [];
  for (let k = 0; k <= steps; k++) {
    const major = k === 0 || k === steps;
    ticks.push(kit.el("div", { class: "fs-knob-tick", style: {
      left: `${face / 2 - 1}px`, height: `${major ? 10 : 6}px`,
      transformOrigin: `1px ${face / 2 - 2}px`, transform: `rotate(${angleOf(k)}deg)`,
    } }));
  }
  const capSize = 2 * Math.floor(deadRadius);
  const cap = kit.el("div", { class: "fs-knob-cap", style: {
    left: `${radius - capSize / 2}px`, top: `${radius - capSize / 2}px`,
    width: `${capSize}px`, height: `${capSize}px`,
  } });
  const indicator = kit.el("div", { class: "fs-knob-indicator", style: {
    left: `${radius - 1}px`, top: `${radius - tipDistance}px`, height: `${tipDistance}px`,
  } });
  const tip = kit.el("div", { class: "fs-knob-tip",
    style: { width: `${grab}px`, height: `${grab}px` } },
    kit.el("div", { class: "fs-knob-dot", style: { left: `${(grab - tipDot) / 2}px`,
      top: `${(grab - tipDot) / 2}px`, width: `${tipDot}px`, height: `${tipDot}px` } }));
  const dial = kit.el("div", { class: "fs-knob-dial", style: {
    left: `${ring}px`, top: `${ring}px`, width: `${2 * radius}px`, height: `${2 * radius}px`,
  } }, indicator, cap, tip);
  const faceBox = kit.el("div", { class: "fs-knob-face",
    style: { width: `${face}px`, height: `${face}px` } }, ...ticks, dial);
  const readout = kit.el("div", { class: "fs-knob-readout" });
  const scale = kit.el("div", { class: "fs-knob-scale" },
    kit.el("span", { text: `${min}` }), readout, kit.el("span", { text: `${params.max}` }));
  host.append(kit.el("div", { class: "fs-card" },
    kit.el("div", { class: "fs-label", text: params.label }), faceBox, scale));

  const valueOf = (k) => Number((min + k * step).toFixed(decimals));
  function show() {
    const angle = angleOf(index);
    const rad = (angle * Math.PI) / 180;
    indicator.style.transform = `rotate(${angle}deg)`;
    // Whole-pixel tip position, so the `now` box measured from it is exact.
    tip.style.left = `${Math.round(radius + tipDistance * Math.sin(rad)) - grab / 2}px`;
    tip.style.top = `${Math.round(radius - tipDistance * Math.cos(rad)) - grab / 2}px`;
    ticks.forEach((tick, k) => tick.classList.toggle("fs-knob-lit", k <= index));
    readout.textContent = `${valueOf(index).toFixed(decimals)}${params.unit}`;
  }
  function fromCentre(x, y) {
    const rect = dial.getBoundingClientRect();
    return [x - (rect.left + radius), y - (rect.top + radius)];
  }
  // The one mapping from a pointer position to a step index (null: inside the
  // dead radius), used by the handlers and by the goal-box measurement alike.
  function indexAt(x, y) {
    const [dx, dy] = fromCentre(x, y);
    if (Math.hypot(dx, dy) < deadRadius) return null;
    const angle = (Math.atan2(dx, -dy) * 180) / Math.PI;  // 0 at the top, clockwise
    const t = ((angle + sweep) / (2 * sweep)) * steps;
    return Math.min(steps, Math.max(0, Math.round(t)));
  }
  const follow = (event) => {
    const k = indexAt(event.clientX, event.clientY);
    if (k !== null) { index = k; show(); }
  };
  kit.onDrag(dial, { start: follow, move: follow, end: follow });
  show();

  return {
    state: () => valueOf(index),
    restore(value) { index = indexOf(value); show(); },
    boxes(goal) {
      const goalIndex = indexOf(goal);
      const core = kit.boxOf(dial);
      // The goal region is the ring sector on the dial itself (a release off the
      // dial works too, but that is not where anyone turns a knob). A wedge
      // under 180 degrees cut by the disc is convex, so a rectangle whose
      // integer points all map to the goal lies in it; the extra pixel beyond
      // the dead radius covers the points between those integer points.
      const inGoal = (x, y) => {
        const distance = Math.hypot(...fromCentre(x, y));
        return distance >= deadRadius + 1 && distance <= radius
          && indexAt(x, y) === goalIndex;
      };
      return { loc: kit.boxOf(host), core, goal: kit.largestBox(core, inGoal), now: kit.boxOf(tip) };
    },
  };
});
