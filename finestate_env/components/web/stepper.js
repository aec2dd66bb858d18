"use strict";
// Stepper: a card of numeric fields, each with a "-" and a "+" button; one
// click on a button moves its own field by one step.
FineState.define("stepper", (host, params, state, kit) => {
  const { button, height } = params;
  // Every field of the card, the distractors too: a probe may step any of them.
  const initial = (target, i) => (i === params.target ? target : params.fields[i].value);
  const rows = params.fields.map((field, i) => {
    const { min, step } = field;
    const steps = Math.round((field.max - min) / step);
    const decimals = (String(step).split(".")[1] || "").length;
    let index;

    const text = kit.el("span", { class: "fs-stepper-text" });
    const display = kit.el("div", { class: "fs-stepper-value",
      style: { width: `${params.field}px`, height: `${height}px` } }, text);
    // The buttons are plain rectangles that take the clicks (hit testing
    // follows border-radius); the rounded faces are drawn by their children.
    const makeButton = (kind, glyph) => kit.el("div", {
      class: `fs-stepper-btn fs-stepper-${kind}`,
      style: { width: `${button}px`, height: `${height}px` },
    }, kit.el("div", { class: "fs-stepper-face", text: glyph }));
    const minus = makeButton("minus", "\u2212");
    const plus = makeButton("plus", "+");
    const buttons = kit.el("div", { class: "fs-stepper-buttons" }, minus, plus);
    const row = kit.el("div", { class: `fs-stepper-row fs-stepper-${params.layout}` },
      kit.el("div", { class: "fs-stepper-label", text: field.label }),
      kit.el("div", { class: "fs-stepper-controls" }, display, buttons));

    const valueOf = (k) => Number((min + k * step).toFixed(decimals));
    function show() {
      text.textContent = `${valueOf(index).toFixed(decimals)}${field.unit}`;
      minus.classList.toggle("fs-stepper-off", index <= 0);
      plus.classList.toggle("fs-stepper-off", index >= steps);
    }
    kit.onTrusted(minus, "click", () => { if (index > 0) { index -= 1; show(); } });
    kit.onTrusted(plus, "click", () => { if (index < steps) { index += 1; show(); } });
    const reset = (target) => { index = Math.round((initial(target, i) - min) / step); show(); };
    reset(state);
    return { row, display, buttons, minus, plus, min, step, reset,
             index: () => index, value: () => valueOf(index) };
  });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-stepper-title", text: params.title }),
    ...rows.map((r) => r.row)));

  const target = rows[params.target];
  return {
    state: () => target.value(),
    snapshot: () => rows.map((r) => r.value()),  // every field: a page reads distractors back whole
    restore(value) { rows.forEach((r) => r.reset(value)); },
    boxes(goal) {
      const goalIndex = Math.round((goal - target.min) / target.step);
      const now = kit.boxOf(target.display);
      const index = target.index();
      // The button whose click moves the value toward the goal; none once it is there.
      const toward = goalIndex > index ? target.plus : goalIndex < index ? target.minus : null;
      return { loc: kit.boxOf(host), core: kit.boxOf(target.buttons),
               goal: toward ? kit.boxOf(toward) : now, now };
    },
    // Gestures the shortest route still takes: one click a step.
    reach(goal) { return Math.abs(Math.round((goal - target.min) / target.step) - target.index()); },
  };
});
