"use strict";
// Zoom/pan: a clipped street map panned by dragging, snapped to a grid of G px cells.
FineState.define("zoom_pan", (host, params, state, kit) => {
  const { width, height, grid, cross, reach } = params;
  // Odd: the pin's integer box has a whole-pixel centre. On a phone the pin is a
  // finger-sized box around the same drawn marker.
  const pinSize = params.pin ?? 19;
  const markSize = 19;
  const crossSize = 31;  // odd, for the same reason
  const half = (size) => (size - 1) / 2;
  // Map coordinates (where things show at pan [0, 0]) -> plane coordinates.
  const offset = [reach[0] * grid, reach[1] * grid];
  let pan, p0, before;  // set by reset

  const plane = kit.el("div", { class: "fs-map-plane", style: {
    width: `${width + 2 * offset[0]}px`, height: `${height + 2 * offset[1]}px` } });
  const band = (axis, position, size) => (axis === 0
    ? { left: `${position + offset[0]}px`, top: "0px", width: `${size}px`, height: "100%" }
    : { left: "0px", top: `${position + offset[1]}px`, width: "100%", height: `${size}px` });
  for (const [x, y, w, h] of params.parks) {
    plane.append(kit.el("div", { class: "fs-map-park", style: {
      left: `${x + offset[0]}px`, top: `${y + offset[1]}px`, width: `${w}px`, height: `${h}px` } }));
  }
  const [riverAxis, riverAt, riverWidth] = params.river;
  plane.append(kit.el("div", { class: "fs-map-river", style: band(riverAxis, riverAt, riverWidth) }));
  // Streets first, then their names, so no crossing street covers a name.
  const names = [];
  for (const [axis, position, size, name] of params.streets) {
    plane.append(kit.el("div", { class: `fs-map-street fs-map-street-${axis ? "h" : "v"}`,
      style: band(axis, position, size) }));
    if (!name) continue;
    // A name every 420 px along the street, so one shows wherever the map is panned.
    const length = axis ? width + 2 * offset[0] : height + 2 * offset[1];
    for (let at = 40; at < length; at += 420) {
      names.push(kit.el("span", { class: `fs-map-street-name fs-map-street-name-${axis ? "h" : "v"}`,
        text: name, style: axis ? { left: `${at}px`, top: `${position + offset[1]}px` }
          : { left: `${position + offset[0]}px`, top: `${at}px` } }));
    }
  }
  plane.append(...names);
  const pins = params.pins.map(([name, x, y], i) => {
    const pin = kit.el("div", { class: "fs-map-pin", style: {
      left: `${x + offset[0] - half(pinSize)}px`, top: `${y + offset[1] - half(pinSize)}px`,
      width: `${pinSize}px`, height: `${pinSize}px` } }, kit.el("div", { class: "fs-map-dot",
      style: { inset: `${half(pinSize) - half(markSize) + 2}px` } }));
    const side = params.label_sides[i];
    // The tag sits beside the marker: its left edge 5 px right of it, or its
    // right edge 5 px left of it.
    const style = { top: `${y + offset[1] - 9}px` };
    if (side === "right") style.left = `${x + offset[0] + half(markSize) + 6}px`;
    else style.right = `${width + 2 * offset[0] - (x + offset[0] - half(markSize) - 5)}px`;
    const label = kit.el("div", { class: "fs-map-tag", text: name, style });
    // Each pin is drawn after its tag so no tag ever hides a pin.
    plane.append(label, pin);
    return pin;
  });
  const crosshair = kit.el("div", { class: "fs-map-cross", style: {
    left: `${cross[0] - half(crossSize)}px`, top: `${cross[1] - half(crossSize)}px`,
    width: `${crossSize}px`, height: `${crossSize}px` } },
    kit.el("div", { class: "fs-map-cross-ring" }));
  const scale = kit.el("div", { class: "fs-map-scale" },
    kit.el("div", { class: "fs-map-scale-bar" }), kit.el("span", { text: "200 m" }));
  const map = kit.el("div", { class: "fs-map-view", style: {
    width: `${width}px`, height: `${height}px` } }, plane, crosshair, scale);
  const header = kit.el("div", { class: "fs-map-header" },
    kit.el("div", { class: "fs-label", text: params.title }),
    kit.el("div", { class: "fs-map-zoom", text: `Zoom ${params.zoom}` }));
  host.append(kit.el("div", { class: "fs-card" }, header, map));

  function show() {
    plane.style.left = `${pan[0] * grid - offset[0]}px`;
    plane.style.top = `${pan[1] * grid - offset[1]}px`;
  }
  const clamp = (value, limit) => Math.min(limit, Math.max(-limit, value));
  // Whole cells in a drag of d CSS px: round(d / grid), halves up. A half cell
  // is a whole number of screenshot pixels when the grid is even at scale 3 (72
  // px for 1.5 cells of 16 px), so a tie falls on a pixel that the box scan
  // visits, and sub-ulp noise decides it: Chromium hands a touch's coordinates
  // over as float32 (742 / 3 -> 247.33334350585938), where boxes(goal) divides
  // exact doubles (814 / 3 - 742 / 3 is 23.99999999999997, not 24). The drag is
  // therefore taken to 1/256 CSS px first: far finer than any screen's pixel,
  // far coarser than that noise, so both see the same exact tie.
  const cells = (d) => Math.round(Math.round(d * 256) / 256 / grid);
  // The one mapping from a press at p0 and a pointer at (x, y) to a pan, for a
  // map that showed `base` at the press: used by the handlers and by boxes(goal).
  function panAt(p0, x, y, base) {
    return [clamp(base[0] + cells(x - p0[0]), reach[0]) + 0,
            clamp(base[1] + cells(y - p0[1]), reach[1]) + 0];
  }
  const follow = (event) => { pan = panAt(p0, event.clientX, event.clientY, before); show(); };
  kit.onDrag(map, {
    start(event) {
      p0 = [event.clientX, event.clientY];
      before = pan.slice();
      map.classList.add("fs-map-dragging");
    },
    move: follow,
    end(event) { follow(event); map.classList.remove("fs-map-dragging"); },
    cancel() { pan = before; show(); map.classList.remove("fs-map-dragging"); },
  });
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) {
    pan = value.slice();
    p0 = null;
    before = pan;
    map.classList.remove("fs-map-dragging");
    show();
  }
  reset(state);

  return {
    state: () => pan.slice(),
    restore: reset,
    boxes(goal) {
      const core = kit.boxOf(map);
      const now = kit.boxOf(pins[0]);
      // Documented press point: the centre of the named pin's integer box.
      const press = kit.toClient((now[0] + now[2]) / 2, (now[1] + now[3]) / 2);
      return {
        loc: kit.boxOf(host),
        core,
        goal: kit.largestBox(core, (x, y) => {
          const [dx, dy] = panAt(press, x, y, pan);
          return dx === goal[0] && dy === goal[1];
        }),
        now,
      };
    },
  };
});
