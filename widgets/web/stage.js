"use strict";
// The stage: renders one control at a time and measures it.
// Component scripts call FineState.define(name, factory); the backend calls
// FineState.render(spec), FineState.boxes(goal) and FineState.state().
// A factory builds its DOM inside `host` and returns {state(), boxes(goal)}.
// State lives in the factory's closure and changes only in handlers of
// trusted (real) input events: script cannot set it, and no form element
// holds it.
(() => {
  const factories = new Map();
  const stage = document.getElementById("stage");
  let active = null;

  // Integer box [x1, y1, x2, y2] (inclusive) of the pixels wholly inside a DOMRect.
  function innerBox(rect) {
    return [Math.ceil(rect.left), Math.ceil(rect.top),
            Math.ceil(rect.right) - 1, Math.ceil(rect.bottom) - 1];
  }

  function boxOf(element) { return innerBox(element.getBoundingClientRect()); }

  // Largest rectangle of integer points inside `area` (an inclusive integer box)
  // on which inGoal(x, y) holds at every point: the classic maximal rectangle in
  // a binary matrix, by histograms, O(width * height). For regions that are
  // convex (a band, a wedge of less than 180 degrees) a rectangle whose integer
  // points all lie in the region contains only region points.
  function largestBox(area, inGoal) {
    const [ax1, ay1, ax2, ay2] = area;
    const width = ax2 - ax1 + 1;
    const heights = new Int32Array(width);
    let best = null, bestArea = 0;
    const stack = new Int32Array(width + 1);
    for (let y = ay1; y <= ay2; y++) {
      for (let i = 0; i < width; i++) heights[i] = inGoal(ax1 + i, y) ? heights[i] + 1 : 0;
      let top = 0;
      for (let i = 0; i <= width; i++) {
        const h = i < width ? heights[i] : 0;
        while (top > 0 && heights[stack[top - 1]] >= h) {
          const height = heights[stack[--top]];
          const left = top > 0 ? stack[top - 1] + 1 : 0;
          const areaSize = height * (i - left);
          if (areaSize > bestArea) {
            bestArea = areaSize;
            best = [ax1 + left, y - height + 1, ax1 + i - 1, y];
          }
        }
        stack[top++] = i;
      }
    }
    return best;
  }

  // Build an element: el("div", {class: "a", text: "b", style: {...}}, ...children)
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "style") {
        // Object.assign would silently drop custom properties (--x): set each one.
        for (const [name, v] of Object.entries(value)) {
          if (name.startsWith("--")) node.style.setProperty(name, v);
          else node.style[name] = v;
        }
      }
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  // Listen to real input only: synthetic events (dispatchEvent) are ignored.
  function onTrusted(target, type, handler) {
    target.addEventListener(type, (event) => { if (event.isTrusted) handler(event); });
  }

  // A press-move-release on `target` with pointer capture, so the drag keeps
  // reporting wherever the pointer goes until release. A cancelled pointer
  // (the browser took the gesture over) calls `cancel`, never `end`.
  function onDrag(target, { start, move, end, cancel }) {
    let pointer = null;
    onTrusted(target, "pointerdown", (event) => {
      if (event.button !== 0 || pointer !== null) return;
      pointer = event.pointerId;
      target.setPointerCapture(pointer);
      event.preventDefault();
      if (start) start(event);
    });
    onTrusted(target, "pointermove", (event) => {
      if (event.pointerId === pointer && move) move(event);
    });
    const finish = (handler) => (event) => {
      if (event.pointerId !== pointer) return;
      pointer = null;
      if (handler) handler(event);
    };
    onTrusted(target, "pointerup", finish(end));
    onTrusted(target, "pointercancel", finish(cancel));
  }

  const kit = Object.freeze({ innerBox, boxOf, largestBox, el, onTrusted, onDrag });

  function place(host, anchor) {
    // Whole-pixel placement keeps every box edge on a pixel boundary.
    const margin = 8;
    const freeX = Math.max(0, window.innerWidth - host.offsetWidth - 2 * margin);
    const freeY = Math.max(0, window.innerHeight - host.offsetHeight - 2 * margin);
    host.style.left = `${margin + Math.round(anchor[0] * freeX)}px`;
    host.style.top = `${margin + Math.round(anchor[1] * freeY)}px`;
  }

  // Build the control of `spec` in its state, synchronously.
  function show(spec) {
    const factory = factories.get(spec.component);
    if (!factory) throw new Error(`no web renderer for component '${spec.component}'`);
    document.body.className = `theme-${spec.theme || "classic-light"}`;
    const host = kit.el("div", { class: `fs-control fs-${spec.component}` });
    stage.replaceChildren(host);
    const control = factory(host, spec.params, structuredClone(spec.state), kit);
    place(host, spec.params.anchor || [0.5, 0.5]);
    active = control;
    return control;
  }

  async function render(spec) {
    const control = show(spec);
    // Settled: layout is forced by the measurement below and fonts are local;
    // waiting for pending font loads covers the first render of a session.
    await document.fonts.ready;
    return control.state();
  }

  // Probing (the box audit, replay/probe.py) sends many gestures back to back
  // with no round trip between them. After each gesture comes a trusted press
  // of PROBE_KEY: the page records the state the gesture produced and shows the
  // current state again before it handles the next gesture's events. Input is
  // handled in order, so each record belongs to exactly one gesture. The key
  // never reaches a control, and script cannot press it (isTrusted).
  const PROBE_KEY = "F24";
  let probing = null;
  function onProbeKey(event) {
    if (!probing || event.key !== PROBE_KEY || !event.isTrusted) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    if (event.type === "keydown") {
      probing.states.push(requireActive().state());
      show(probing.spec);
    }
  }
  window.addEventListener("keydown", onProbeKey, true);
  window.addEventListener("keyup", onProbeKey, true);

  // Measuring a goal box scans thousands of points through the widget's own
  // pointer mapping, which reads element rects each time. Layout cannot change
  // while boxes are measured, so rects are read once per element meanwhile.
  function withFrozenLayout(measure) {
    const original = Element.prototype.getBoundingClientRect;
    const rects = new Map();
    Element.prototype.getBoundingClientRect = function frozenRect() {
      if (!rects.has(this)) rects.set(this, original.call(this));
      return rects.get(this);
    };
    try {
      return measure();
    } finally {
      Element.prototype.getBoundingClientRect = original;
    }
  }

  function requireActive() {
    if (!active) throw new Error("nothing rendered yet");
    return active;
  }

  const api = {
    define(name, factory) {
      if (factories.has(name)) throw new Error(`component '${name}' defined twice`);
      factories.set(name, factory);
    },
    has(name) { return factories.has(name); },
    render,
    state() { return requireActive().state(); },
    // Record probes of `spec` (shown in its current state); take the states
    // recorded so far; stop recording.
    async startProbing(spec) {
      await render(spec);
      probing = { spec, states: [] };
    },
    takeProbes() {
      if (!probing) throw new Error("not probing");
      const states = probing.states;
      probing.states = [];
      return states;
    },
    stopProbing() { probing = null; },
    boxes(goal) { return withFrozenLayout(() => requireActive().boxes(goal)); },
    // Everything a reset needs in one round trip: boxes of the target
    // configuration (rendered showing the goal), then the current one.
    async prepare(spec) {
      await render({ ...spec, state: spec.goal });
      const target = withFrozenLayout(() => active.boxes(spec.goal));
      const shown = await render(spec);
      return { target, current: withFrozenLayout(() => active.boxes(spec.goal)), state: shown };
    },
  };
  Object.defineProperty(window, "FineState", { value: Object.freeze(api), writable: false });
})();
