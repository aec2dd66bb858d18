"use strict";
// Scrollbar: a list of numbered rows scrolled (by whole rows) with a custom scrollbar.
FineState.define("scrollbar", (host, params, state, kit) => {
  const { rows: count, visible, row_height: rowHeight, thumb: thumbHeight } = params;
  const trackHeight = visible * rowHeight;
  const travel = trackHeight - thumbHeight;
  const maxFirst = count - visible;
  let first, before;  // set by reset

  const label = (i) => `${params.prefix}${params.start + i}`;
  const cell = (cls, text) => kit.el("span", { class: cls, text });
  const content = kit.el("div", { class: "fs-scroll-content" }, ...Array.from({ length: count },
    (_, i) => kit.el("div", { class: "fs-scroll-row", style: { height: `${rowHeight}px` } },
      cell("fs-scroll-num", label(i)), cell("fs-scroll-detail", params.details[i]),
      cell("fs-scroll-extra", params.extra[i]))));
  const list = kit.el("div", { class: "fs-scroll-list", style: { height: `${trackHeight}px` } },
    content);
  // The drawn bar is track_width px wide; the strip that takes the press may be
  // wider (a phone's finger), reaching left over the list, whose rows take no input.
  const barWidth = params.track_width, hitWidth = params.hit ?? barWidth;
  const thumb = kit.el("div", { class: "fs-scroll-thumb", style: { height: `${thumbHeight}px` } },
    kit.el("div", { class: "fs-scroll-thumb-pill", style: { width: `${barWidth - 5}px` } }));
  const track = kit.el("div", { class: "fs-scroll-track", style: {
    width: `${hitWidth}px`, height: `${trackHeight}px`, marginLeft: `${barWidth - hitWidth}px` } },
    kit.el("div", { class: "fs-scroll-rail", style: { width: `${barWidth}px` } }), thumb);
  const columns = kit.el("div", { class: "fs-scroll-columns",
    style: { paddingRight: `${params.track_width + 10}px` } },
    cell("fs-scroll-num", params.columns[0]), cell("fs-scroll-detail", params.columns[1]),
    cell("fs-scroll-extra", params.columns[2]));
  const footer = kit.el("div", { class: "fs-scroll-footer" });
  host.append(kit.el("div", { class: "fs-card", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-scroll-title", text: params.title }),
    columns, kit.el("div", { class: "fs-scroll-panel" }, list, track), footer));

  function show() {
    content.style.transform = `translateY(${-first * rowHeight}px)`;
    // Whole-pixel thumb position, so the `now` box measured from it is exact.
    thumb.style.top = `${Math.round((first / maxFirst) * travel)}px`;
    footer.textContent = `Showing ${first + 1}-${first + visible} of ${count}`;
  }
  // The one mapping from a pointer's y to the first visible row, used by the
  // handlers and by boxes(goal): absolute, x plays no part.
  function firstAt(y) {
    const top = track.getBoundingClientRect().top;
    const t = ((y - top - thumbHeight / 2) / travel) * maxFirst;
    return Math.min(maxFirst, Math.max(0, Math.round(t))) + 0;
  }
  const follow = (event) => { first = firstAt(event.clientY); show(); };
  kit.onDrag(track, {
    start(event) { before = first; track.classList.add("fs-scroll-active"); follow(event); },
    move: follow,
    end(event) { follow(event); track.classList.remove("fs-scroll-active"); },
    cancel() { first = before; show(); track.classList.remove("fs-scroll-active"); },
  });
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) {
    first = before = value;
    track.classList.remove("fs-scroll-active");
    show();
  }
  reset(state);

  return {
    state: () => first,
    restore: reset,
    boxes(goal) {
      const core = kit.boxOf(track);
      return {
        loc: kit.boxOf(host),
        core,
        goal: kit.largestBox(core, (x, y) => firstAt(y) === goal),
        now: kit.boxOf(thumb),
      };
    },
  };
});
