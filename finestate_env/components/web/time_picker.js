"use strict";
// Time picker: a clock popup in minute mode; a click on the dial ring sets the
// minute from the click's angle around the dial centre.
FineState.define("time_picker", (host, params, state, kit) => {
  const { radius } = params;
  const inner = radius * 0.35;  // the dead centre: angles swing wildly there
  // Small dials (short viewports) get smaller labels, so that neighbours never touch.
  const labelSize = radius < 90 ? 24 : 32;
  const knobSize = params.knob ?? labelSize;  // a phone's knob is finger-sized
  // Where the 00..55 labels and the knob sit: the knob 8 px inside the dial's edge.
  const numberRadius = radius - Math.max(labelSize, knobSize) / 2 - 8;
  let hour, minute;
  function select(time) {
    hour = Number(time.slice(0, 2));
    minute = Number(time.slice(3, 5));
  }
  select(state);
  const pad = (n) => String(n).padStart(2, "0");

  // Whole-pixel point at `degrees` (0 at the top, clockwise), `r` from the centre.
  const at = (degrees, r) => {
    const rad = (degrees * Math.PI) / 180;
    return [Math.round(radius + r * Math.sin(rad)), Math.round(radius - r * Math.cos(rad))];
  };

  const ticks = Array.from({ length: 60 }, (_, m) => kit.el("div", {
    class: m % 5 === 0 ? "fs-time-tick fs-time-tick-major" : "fs-time-tick",
    style: { left: `${radius - 1}px`, height: `${m % 5 === 0 ? 6 : 4}px`,
             transformOrigin: `1px ${radius - 2}px`, transform: `rotate(${m * 6}deg)` },
  }));
  const numbers = Array.from({ length: 12 }, (_, k) => {
    const [x, y] = at(k * 30, numberRadius);
    return kit.el("div", { class: "fs-time-num", text: pad(k * 5), style: {
      left: `${x - labelSize / 2}px`, top: `${y - labelSize / 2}px` } });
  });
  const hand = kit.el("div", { class: "fs-time-hand", style: {
    left: `${radius - 1}px`, top: `${radius - numberRadius}px`, height: `${numberRadius}px` } });
  const pivot = kit.el("div", { class: "fs-time-pivot", style: {
    left: `${radius - 4}px`, top: `${radius - 4}px` } });
  const knob = kit.el("div", { class: "fs-time-knob" });
  const dial = kit.el("div", { class: "fs-time-dial", style: {
    width: `${2 * radius}px`, height: `${2 * radius}px` } },
    ...ticks, ...numbers, hand, pivot, knob);

  const fieldText = kit.el("div", { class: "fs-time-text" });
  const field = kit.el("div", { class: "fs-time-field" }, fieldText,
    kit.el("div", { class: "fs-time-icon" }));
  const hourBox = kit.el("div", { class: "fs-time-part" });
  const minuteBox = kit.el("div", { class: "fs-time-part fs-time-part-on" });
  const header = kit.el("div", { class: "fs-time-header" },
    hourBox, kit.el("div", { class: "fs-time-colon", text: ":" }), minuteBox);
  const actions = kit.el("div", { class: "fs-time-actions" },
    kit.el("div", { class: "fs-time-button", text: "Cancel" }),
    kit.el("div", { class: "fs-time-button", text: "OK" }));
  const side = kit.el("div", { class: "fs-time-side" },
    kit.el("div", { class: "fs-time-title", text: params.title }), header, actions);
  const popup = kit.el("div", { class: "fs-time-popup" },
    kit.el("div", { class: "fs-time-body" }, side, dial));
  host.classList.add(`fs-time-${params.layout}`);
  host.style.setProperty("--num", `${labelSize}px`);
  host.style.setProperty("--knob", `${knobSize}px`);
  host.classList.toggle("fs-time-small", labelSize < 32);
  // A fixed width (measures.js, as time_picker.py sizes it): the texts must never resize
  // the control.
  const sizes = FineStateMeasures.time_picker;
  const besides = params.layout === "landscape" ? sizes.landscape_width : sizes.portrait_width;
  host.style.width = `${2 * radius + besides}px`;
  host.append(kit.el("div", { class: "fs-label", text: params.label }), field, popup);

  function show() {
    const text = `${pad(hour)}:${pad(minute)}`;
    fieldText.textContent = text;
    hourBox.textContent = pad(hour);
    minuteBox.textContent = pad(minute);
    hand.style.transform = `rotate(${minute * 6}deg)`;
    const [x, y] = at(minute * 6, numberRadius);
    knob.style.left = `${x - knobSize / 2}px`;
    knob.style.top = `${y - knobSize / 2}px`;
    // On a label the knob shows it; between labels it shows a dot, as Material does.
    const onLabel = minute % 5 === 0;
    knob.textContent = onLabel ? pad(minute) : "";
    knob.classList.toggle("fs-time-knob-dot", !onLabel);
  }
  function fromCentre(x, y) {
    const rect = dial.getBoundingClientRect();
    return [x - (rect.left + radius), y - (rect.top + radius)];
  }
  // The one mapping from a pointer position to a minute (null: off the ring),
  // used by the click handler and by the goal-box measurement alike.
  function minuteAt(x, y) {
    const [dx, dy] = fromCentre(x, y);
    const distance = Math.hypot(dx, dy);
    if (distance < inner || distance > radius) return null;
    const angle = (Math.atan2(dx, -dy) * 180) / Math.PI;  // 0 at 12 o'clock, clockwise
    return ((Math.round(angle / 6) % 60) + 60) % 60;
  }
  kit.onTrusted(dial, "click", (event) => {
    const m = minuteAt(event.clientX, event.clientY);
    if (m !== null) { minute = m; show(); }
  });
  show();

  return {
    state: () => `${pad(hour)}:${pad(minute)}`,
    restore(value) { select(value); show(); },
    boxes(goal) {
      const goalMinute = Number(goal.slice(3, 5));
      const core = kit.boxOf(dial);
      // A 6 degree wedge cut by the ring is convex but for the inner circle; a
      // rectangle whose integer points all keep 1 px inside the ring and map
      // to the goal lies wholly in the goal region.
      // A click reports whole CSS px: on a phone, where a screenshot pixel is a
      // fraction of a CSS px, the click lands on the CSS px the tap is in.
      const inGoal = (clientX, clientY) => {
        const [x, y] = [Math.floor(clientX), Math.floor(clientY)];
        const distance = Math.hypot(...fromCentre(x, y));
        return distance >= inner + 1 && distance <= radius - 1 && minuteAt(x, y) === goalMinute;
      };
      return { loc: kit.boxOf(host), core, goal: kit.largestBox(core, inGoal),
               now: kit.boxOf(knob) };
    },
  };
});
