"use strict";
// The stage: renders one control at a time and measures it.
// Component scripts call FineState.define(name, factory); the backend calls
// FineState.render(spec), FineState.boxes(goal) and FineState.state().
// A factory builds its DOM inside `host` and returns {state(), boxes(goal),
// restore(state)}: restore puts the built control back into `state` in place,
// as the factory itself would have shown it (view included: the shown month,
// the scroll offset, the selection), with no new DOM. The box audit restores
// between thousands of probes, and rebuilding costs a new style and layout.
// State lives in the factory's closure and changes only in handlers of
// trusted (real) input events: script cannot set it, and no form element
// holds it.
(() => {
  const factories = new Map();
  const blockPainters = new Map();  // scene.js: what draws each kind of page block
  const stage = document.getElementById("stage");
  let active = null;
  let activeHost = null;  // the target's host on a page (rebuilt alone by showTarget)
  // A page scene's other controls, each {control, spec, host}: read back after a step
  // (collateral changes) and restored in place with the target between probes.
  let distractors = [];

  // The wall behind the data checks (components/domain.py): the page's CSP (backends/web.py,
  // STAGE_CSP) runs only the project's own scripts, and every attempt at anything else is
  // recorded here. A render refuses to go on once one happened, or once a global appeared
  // that none of the project's scripts defines (they have all loaded by the first render):
  // the backend then gives the next instance a fresh page, so nothing an instance did
  // survives into the next one shown. The check costs one list of the window's names.
  const TAMPERED = "FineState: the page was changed by script";
  const violations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline code"}`);
  });
  let globalsAtFirstRender = null;
  function checkIntact() {
    const names = Object.getOwnPropertyNames(window);
    if (globalsAtFirstRender === null) globalsAtFirstRender = new Set(names);
    // The backend's own capture markers (web.py, _marking) are its, set from DevTools.
    const added = names.filter((name) => !globalsAtFirstRender.has(name) &&
                                         !name.startsWith("__fineState"));
    if (violations.length || added.length) {
      throw new Error(`${TAMPERED}: ${[...violations, ...added.map((n) => `window.${n} set`)]
        .slice(0, 5).join("; ")}`);
    }
  }

  // Boxes are measured in the pixels of the screenshot, not in CSS px: on a
  // phone one CSS px is `scale` screenshot pixels (the device pixel ratio), and
  // a device browser's page starts `offset` pixels into the screen (status and
  // address bars). Measuring on the screenshot's own grid keeps a goal box as
  // large and as tight as that grid allows. The web backend keeps scale 1 and
  // no offset: screenshot pixels are CSS px there.
  const frame = { scale: 1, offsetX: 0, offsetY: 0 };
  const toScreen = (x, y) => [x * frame.scale + frame.offsetX, y * frame.scale + frame.offsetY];
  // The CSS point (clientX, clientY) under the screenshot point (x, y).
  const toClient = (x, y) => [(x - frame.offsetX) / frame.scale, (y - frame.offsetY) / frame.scale];

  // Integer box [x1, y1, x2, y2] (inclusive) of the screenshot pixels wholly inside a DOMRect.
  function innerBox(rect) {
    const [left, top] = toScreen(rect.left, rect.top);
    const [right, bottom] = toScreen(rect.right, rect.bottom);
    return [Math.ceil(left), Math.ceil(top), Math.ceil(right) - 1, Math.ceil(bottom) - 1];
  }

  function boxOf(element) { return innerBox(element.getBoundingClientRect()); }

  // Largest rectangle of integer points inside `area` (an inclusive integer box
  // in screenshot pixels) on which inGoal(clientX, clientY) holds at every
  // point, asked in CSS px as the control's own event handlers see them: the
  // classic maximal rectangle in a binary matrix, by histograms,
  // O(width * height). For regions that are convex (a band, a wedge of less
  // than 180 degrees) a rectangle whose integer points all lie in the region
  // contains only region points.
  // At a scale of s screenshot pixels per CSS px the scan visits every
  // floor(s)-th pixel (about one point per CSS px, as at scale 1: a full scan
  // would cost s*s times as much), then grows each side of the best rectangle
  // pixel by pixel while every pixel of the new edge lies in the region.
  function largestBox(area, inGoal) {
    const [ax1, ay1, ax2, ay2] = area;
    const step = Math.max(1, Math.floor(frame.scale));
    const at = (x, y) => inGoal(...toClient(x, y));
    const width = Math.floor((ax2 - ax1) / step) + 1;
    const heights = new Int32Array(width);
    let best = null, bestArea = 0;
    const stack = new Int32Array(width + 1);
    for (let row = 0, y = ay1; y <= ay2; row++, y += step) {
      for (let i = 0; i < width; i++) heights[i] = at(ax1 + i * step, y) ? heights[i] + 1 : 0;
      let top = 0;
      for (let i = 0; i <= width; i++) {
        const h = i < width ? heights[i] : 0;
        while (top > 0 && heights[stack[top - 1]] >= h) {
          const height = heights[stack[--top]];
          const left = top > 0 ? stack[top - 1] + 1 : 0;
          const areaSize = height * (i - left);
          if (areaSize > bestArea) {
            bestArea = areaSize;
            best = [ax1 + left * step, ay1 + (row - height + 1) * step,
                    ax1 + (i - 1) * step, ay1 + row * step];
          }
        }
        stack[top++] = i;
      }
    }
    return best && step > 1 ? grow(best, area, at) : best;
  }

  // Push each side of `box` outward one pixel at a time, within `area`, while
  // every pixel of the new edge satisfies at(x, y).
  function grow(box, area, at) {
    const [x1, y1, x2, y2] = box;
    const column = (x, top, bottom) => {
      for (let y = top; y <= bottom; y++) if (!at(x, y)) return false;
      return true;
    };
    const row = (y, left, right) => {
      for (let x = left; x <= right; x++) if (!at(x, y)) return false;
      return true;
    };
    let left = x1, right = x2, top = y1, bottom = y2;
    while (left > area[0] && column(left - 1, top, bottom)) left--;
    while (right < area[2] && column(right + 1, top, bottom)) right++;
    while (top > area[1] && row(top - 1, left, right)) top--;
    while (bottom < area[3] && row(bottom + 1, left, right)) bottom++;
    return [left, top, right, bottom];
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

  // A horizontal track of `steps` steps spread over `trackLength` px from the
  // left edge of `rail`, dragged through `target`: the index follows the
  // pointer's x, rounded to the nearest step; a cancelled drag puts it back.
  // Returns the one mapping from a pointer position to a step index, for the
  // control's goal-box measurement to use too.
  function onTrackDrag(target, rail, trackLength, steps, { get, set }) {
    function indexAt(clientX) {
      const start = rail.getBoundingClientRect().left;
      const t = ((clientX - start) / trackLength) * steps;
      return Math.min(steps, Math.max(0, Math.round(t)));
    }
    const follow = (event) => set(indexAt(event.clientX));
    let before = get();
    onDrag(target, { start: (event) => { before = get(); follow(event); }, move: follow,
                     end: follow, cancel: () => set(before) });
    return indexAt;
  }

  const kit = Object.freeze({ innerBox, boxOf, largestBox, toClient, el, onTrusted, onDrag,
                              onTrackDrag });

  function place(host, anchor) {
    // Whole-pixel placement keeps every box edge on a pixel boundary.
    const margin = FineStateMeasures.stage.margin;  // the samplers size controls to fit
    const freeX = Math.max(0, window.innerWidth - host.offsetWidth - 2 * margin);
    const freeY = Math.max(0, window.innerHeight - host.offsetHeight - 2 * margin);
    host.style.left = `${margin + Math.round(anchor[0] * freeX)}px`;
    host.style.top = `${margin + Math.round(anchor[1] * freeY)}px`;
  }

  // One control of `component` built into a new host, in `state`. The host is in the
  // page before the factory runs: renderers measure their text while they build.
  function build(component, params, state, attach) {
    const factory = factories.get(component);
    if (!factory) throw new Error(`no web renderer for component '${component}'`);
    const host = kit.el("div", { class: `fs-control fs-${component}` });
    attach(host);
    const control = factory(host, params, structuredClone(state), kit);
    for (const method of ["state", "boxes", "restore"]) {
      if (typeof control[method] !== "function") {
        throw new Error(`web renderer '${component}' has no ${method}()`);
      }
    }
    return { host, control };
  }

  // Build the control of `spec` in its state, synchronously.
  function show(spec) {
    document.body.className = `theme-${spec.theme || "classic-light"}`;
    if (spec.scene) return showPage(spec);
    distractors = [];
    const { host, control } = build(spec.component, spec.params, spec.state,
                                    (node) => stage.replaceChildren(node));
    place(host, spec.params.anchor || [0.5, 0.5]);
    active = control;
    return control;
  }

  // A page scene (widgets/scenes): the template's blocks drawn by scene.js, the
  // target in its slot and every distractor in its own, each by its own renderer.
  // A control sits at its slot's top-left inside the stage's margin and must fit
  // the slot whole (its sampler was given the slot as viewport): a control that
  // overflows would cover its neighbours, so it is an error, never a clip.
  function seat(host, rect, what, template) {
    const margin = FineStateMeasures.stage.margin;
    host.style.left = `${rect[0] + margin}px`;
    host.style.top = `${rect[1] + margin}px`;
    if (host.offsetWidth > rect[2] - 2 * margin || host.offsetHeight > rect[3] - 2 * margin) {
      throw new Error(`scene ${template}: the ${what} (${host.offsetWidth}x` +
                      `${host.offsetHeight}) overflows its slot ${rect.join(",")}`);
    }
  }

  function showPage(spec) {
    const scene = spec.scene;
    const page = kit.el("div", { class: "fs-page" });
    for (const given of scene.blocks) {
      const paint = blockPainters.get(given.kind);
      if (!paint) throw new Error(`no web painter for page block '${given.kind}'`);
      // Numbers as numbers, whatever came (painters write some into SVG markup): the
      // Python side refuses anything else first (components/domain.py), this is the wall.
      const block = { ...given, rect: given.rect.map(Number) };
      if (given.seed !== undefined) block.seed = Number(given.seed);
      const [x, y, w, h] = block.rect;
      const node = kit.el("div", { class: `fs-block fs-block-${block.kind}`, style: {
        left: `${x}px`, top: `${y}px`, width: `${w}px`, height: `${h}px` } });
      paint(node, block, kit);
      page.append(node);
    }
    stage.replaceChildren(page);
    const attach = (node) => stage.append(node);
    const target = build(spec.component, spec.params, spec.state, attach);
    const others = scene.distractors.map((d) => ({
      ...build(d.component, d.params, d.state, attach), spec: d }));
    seat(target.host, scene.rect, `target ${spec.component}`, scene.template);
    for (const o of others) {
      seat(o.host, o.spec.rect, `${o.spec.component} '${o.spec.label}'`, scene.template);
    }
    distractors = others;
    active = target.control;
    activeHost = target.host;
    return target.control;
  }

  // The page shown stays; its target alone is built again, in `spec.state`, in its
  // host's place. The DOM is then what showPage(spec) builds (the same nodes in the
  // same order), without rebuilding the template and every distractor.
  function showTarget(spec) {
    const old = activeHost;
    const target = build(spec.component, spec.params, spec.state,
                         (node) => old.replaceWith(node));
    seat(target.host, spec.scene.rect, `target ${spec.component}`, spec.scene.template);
    active = target.control;
    activeHost = target.host;
    return target.control;
  }

  // What each distractor holds now, whole (snapshot(): every item of a card of several).
  function distractorStates() {
    return distractors.map(({ control }) => (control.snapshot ? control.snapshot()
                                                               : control.state()));
  }

  // `targetOnly`: the page shown is spec's own (prepare's second render), so only the
  // target is built again (showTarget); a lone control is rebuilt whole either way.
  async function render(spec, targetOnly = false) {
    checkIntact();
    const control = targetOnly && spec.scene ? showTarget(spec) : show(spec);
    // Settled: layout is forced by the measurement below and fonts are local;
    // waiting for pending font loads covers the first render of a session.
    await document.fonts.ready;
    return control.state();
  }

  // Probing (the box audit, replay/probe.py) sends many gestures back to back
  // with no round trip between them. After each gesture comes a trusted press
  // of PROBE_KEY: the page records the state the gesture produced and restores
  // the current state in place before it handles the next gesture's events.
  // Input is handled in order, so each record belongs to exactly one gesture.
  // The key never reaches a control, and script cannot press it (isTrusted).
  const PROBE_KEY = "F24";
  let probing = null;
  function onProbeKey(event) {
    if (!probing || event.key !== PROBE_KEY || !event.isTrusted) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    if (event.type === "keydown") probing.states.push(recordAndRestore());
  }
  function recordAndRestore() {
    const control = requireActive();
    const state = control.state();
    // A fresh render has nothing focused: a clicked button must not keep focus.
    if (document.activeElement !== document.body) document.activeElement.blur();
    control.restore(structuredClone(probing.spec.state));
    for (const { control: other, spec } of distractors) other.restore(structuredClone(spec.state));
    return state;
  }
  window.addEventListener("keydown", onProbeKey, true);
  window.addEventListener("keyup", onProbeKey, true);
  // Touch input is queued apart from keys (a touch waits for the page's ack of
  // the one before it), so a key cannot mark the end of a touch gesture: the
  // mobile backend waits for each gesture's input, then calls nextProbe().
  function nextProbe() {
    if (!probing) throw new Error("not probing");
    return recordAndRestore();
  }

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

  // A page's distractors as shown: their states and their visible extents (loc boxes).
  function sceneReport() {
    if (!distractors.length) return {};
    return { distractors: { states: distractorStates(),
                            locs: distractors.map(({ host }) => boxOf(host)) } };
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
    // scene.js: paint(node, block, kit) draws one kind of page block into its node.
    defineBlock(kind, paint) {
      if (blockPainters.has(kind)) throw new Error(`page block '${kind}' defined twice`);
      blockPainters.set(kind, paint);
    },
    // Where the page sits in the screenshot: `scale` screenshot pixels per CSS
    // px, the page's top-left at (offsetX, offsetY) screenshot pixels.
    setFrame(scale, offsetX = 0, offsetY = 0) {
      if (!(scale > 0) || !Number.isInteger(offsetX) || !Number.isInteger(offsetY)) {
        throw new Error(`bad frame: scale ${scale}, offset ${offsetX}, ${offsetY}`);
      }
      Object.assign(frame, { scale, offsetX, offsetY });
    },
    render,
    state() { return requireActive().state(); },
    // A page's distractors, each read back whole, in the scene's order ([] alone).
    distractorStates() { requireActive(); return distractorStates(); },
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
    // What the page's CSP blocked so far (tests read it; a render refuses to go on after one).
    violations() { return [...violations]; },
    nextProbe,
    boxes(goal) { return withFrozenLayout(() => requireActive().boxes(goal)); },
    // The boxes of the screen as it is now, mid-episode, and how many gestures the
    // shortest route to `goal` still takes from it (a renderer's reach(goal); null for a
    // type whose every goal is one gesture away).
    measure(goal) {
      const control = requireActive();
      return { boxes: withFrozenLayout(() => control.boxes(goal)),
               reach: typeof control.reach === "function" ? control.reach(goal) : null };
    },
    // Everything a reset needs in one round trip: boxes of the target
    // configuration (rendered showing the goal), then the current one.
    async prepare(spec) {
      await render({ ...spec, state: spec.goal });
      const target = withFrozenLayout(() => active.boxes(spec.goal));
      const shown = await render(spec, true);
      return { target, current: withFrozenLayout(() => active.boxes(spec.goal)), state: shown,
               ...sceneReport() };
    },
    // What a replay needs: the current configuration shown and measured, no target.
    async prepareCurrent(spec) {
      const shown = await render(spec);
      return { current: withFrozenLayout(() => active.boxes(spec.goal)), state: shown,
               ...sceneReport() };
    },
  };
  Object.defineProperty(window, "FineState", { value: Object.freeze(api), writable: false });
})();
