"use strict";
// Seek bar: the playback position is set by the pointer's x during a drag,
// rounded to the seek step. The play button never changes the position.
FineState.define("seek_bar", (host, params, state, kit) => {
  const { duration, step, track: trackLength, head } = params;
  const steps = Math.round(duration / step);
  const indexOf = (seconds) => Math.round(seconds / step);
  let index = indexOf(state);

  const clock = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  // A finger's sizes (params.hit and params.play, on a phone) or a mouse's.
  const mouse = FineStateMeasures.seek_bar;
  const bandHeight = params.hit ?? mouse.band;
  const playSize = params.play ?? mouse.play;
  const inset = head / 2;  // the rail starts and ends half a playhead inside the band
  const railTop = (bandHeight - 4) / 2;  // the 4 px rail, centred in the band
  const rail = kit.el("div", { class: "fs-seek-rail",
    style: { left: `${inset}px`, top: `${railTop}px`, width: `${trackLength}px` } });
  const buffered = kit.el("div", { class: "fs-seek-buffered", style: {
    left: `${inset}px`, top: `${railTop}px`,
    width: `${Math.round(params.buffered * trackLength)}px` } });
  const played = kit.el("div", { class: "fs-seek-played",
    style: { left: `${inset}px`, top: `${railTop}px` } });
  const playhead = kit.el("div", { class: "fs-seek-head",
    style: { width: `${head}px`, height: `${head}px`, top: `${(bandHeight - head) / 2}px` } });
  // The hit band: the rail plus half a playhead beyond each end. A stacked
  // band's margin keeps the rail where a mouse-sized band puts it, as far as it goes.
  const bandStyle = { width: `${trackLength + head}px`, height: `${bandHeight}px` };
  if (params.layout !== "inline") {
    bandStyle.marginTop = `${Math.max(0, 8 - (bandHeight - mouse.band) / 2)}px`;
  }
  const band = kit.el("div", { class: "fs-seek-band", style: bandStyle },
    rail, buffered, played, playhead);
  const elapsed = kit.el("div", { class: "fs-seek-time fs-seek-elapsed" });
  const total = kit.el("div", { class: "fs-seek-time", text: clock(duration) });
  // The triangle (11 x 14 px) sits a little right of centre, where it looks centred.
  const play = kit.el("div", { class: "fs-seek-play",
    style: { width: `${playSize}px`, height: `${playSize}px` } },
    kit.el("div", { class: "fs-seek-triangle",
      style: { left: `${(playSize - 11) / 2 + 1.5}px`, top: `${(playSize - 14) / 2}px` } }));

  const parts = [];
  if (params.poster) {
    parts.push(kit.el("div", { class: "fs-seek-poster", style: { height: `${params.poster}px` } },
      kit.el("div", { class: "fs-seek-poster-play" }, kit.el("div", { class: "fs-seek-triangle" }))));
  }
  parts.push(kit.el("div", { class: "fs-label", text: params.title }),
             kit.el("div", { class: "fs-seek-subtitle", text: params.subtitle }));
  if (params.layout === "inline") {
    parts.push(kit.el("div", { class: "fs-seek-row" }, play, elapsed, band, total));
  } else {
    parts.push(band, kit.el("div", { class: "fs-seek-row" }, play, elapsed,
      kit.el("div", { class: "fs-seek-slash", text: "/" }), total));
  }
  host.append(kit.el("div", { class: `fs-card fs-seek-${params.layout}` }, ...parts));

  function show() {
    const x = (index / steps) * trackLength;  // playhead centre, relative to the rail start
    playhead.style.left = `${x}px`;
    played.style.width = `${x}px`;
    elapsed.textContent = clock(index * step);
  }
  const indexAt = kit.onTrackDrag(band, rail, trackLength, steps, {
    get: () => index, set: (k) => { index = k; show(); } });
  show();

  return {
    state: () => index * step,
    restore(value) { index = indexOf(value); show(); },
    boxes(goal) {
      const goalIndex = indexOf(goal);
      const core = kit.boxOf(band);
      return {
        loc: kit.boxOf(host),
        core,
        // indexAt depends on x alone: the band of x whose index is the goal's.
        goal: kit.largestBox(core, (x) => indexAt(x) === goalIndex),
        now: kit.boxOf(playhead),
      };
    },
  };
});
