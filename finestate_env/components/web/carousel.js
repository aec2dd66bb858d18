"use strict";
// Carousel: one slide shown at a time; a click on a dot shows that slide, the
// arrows step one slide back or forth (stopping at the ends).
FineState.define("carousel", (host, params, state, kit) => {
  const { slides, width, height, dot, gap } = params;
  // The square that takes a dot's taps: the dot itself, or a finger-sized
  // square around it on a phone.
  const hit = params.hit ?? dot;
  const inset = Math.floor((hit - dot) / 2);
  let index;  // set by reset

  // The picture's parts are restyled per slide, never built again.
  const sun = kit.el("div", { class: "fs-carousel-sun" });
  const hills = [kit.el("div", { class: "fs-carousel-hill" }),
                 kit.el("div", { class: "fs-carousel-hill" })];
  const picture = kit.el("div", { class: "fs-carousel-picture" }, sun, ...hills);
  const slideTitle = kit.el("div", { class: "fs-carousel-slide-title" });
  const caption = kit.el("div", { class: "fs-carousel-caption" });
  const panel = kit.el("div", { class: "fs-carousel-panel" }, picture,
    kit.el("div", { class: "fs-carousel-band" }, slideTitle, caption));
  const prev = kit.el("div", { class: "fs-carousel-arrow fs-carousel-prev" });
  const next = kit.el("div", { class: "fs-carousel-arrow fs-carousel-next" });
  const view = kit.el("div", { class: "fs-carousel-view",
    style: { width: `${width}px`, height: `${height}px` } }, panel, prev, next);
  // Square dots with gaps between them: hit testing follows border-radius, so
  // the round look is drawn by a pseudo-element and the square takes the click.
  const dots = slides.map((_, i) => {
    const node = kit.el("div", { class: "fs-carousel-dot", style: {
      width: `${hit}px`, height: `${hit}px`, "--fs-dot": `${dot}px`, "--fs-dot-at": `${inset}px` } });
    kit.onTrusted(node, "click", () => { index = i; show(); });
    return node;
  });
  // Centred in whole pixels (auto margins could leave the dots on half pixels).
  // A phone's squares reach up into the 12 px under the view, keeping the dots
  // about as close to it as on a desktop.
  const rowWidth = slides.length * hit + (slides.length - 1) * gap;
  const row = kit.el("div", { class: "fs-carousel-dots", style: {
    gap: `${gap}px`, marginLeft: `${Math.floor((width - rowWidth) / 2)}px`,
    marginTop: `${Math.max(0, 12 - inset)}px` } }, ...dots);
  host.append(kit.el("div", { class: "fs-card" },
    kit.el("div", { class: "fs-label fs-carousel-title", text: params.title }), view, row));
  kit.onTrusted(prev, "click", () => { index = Math.max(0, index - 1); show(); });
  kit.onTrusted(next, "click", () => { index = Math.min(slides.length - 1, index + 1); show(); });

  function show() {
    const slide = slides[index];
    slideTitle.textContent = slide.title;
    caption.textContent = slide.caption;
    const sunSize = 36;
    Object.assign(sun.style, {
      left: `${Math.round(slide.sun * (width - sunSize))}px`, top: "16px",
      width: `${sunSize}px`, height: `${sunSize}px` });
    Object.assign(hills[0].style, {
      left: `${Math.round((slide.hill - 0.5) * width)}px`, top: `${Math.round(height * 0.42)}px`,
      width: `${Math.round(width * 1.1)}px`, height: `${height}px`,
      background: `color-mix(in srgb, var(--fs-accent) ${slide.tint + 30}%, var(--fs-surface-alt))`,
    });
    Object.assign(hills[1].style, {
      left: `${Math.round((0.55 - slide.hill) * width)}px`, top: `${Math.round(height * 0.58)}px`,
      width: `${Math.round(width * 0.9)}px`, height: `${height}px`,
      background: `color-mix(in srgb, var(--fs-accent) ${slide.tint + 45}%, var(--fs-surface-alt))`,
    });
    panel.style.background =
      `color-mix(in srgb, var(--fs-accent) ${slide.tint}%, var(--fs-surface-alt))`;
    dots.forEach((node, i) => node.classList.toggle("fs-carousel-on", i === index));
    prev.classList.toggle("fs-carousel-off", index === 0);
    next.classList.toggle("fs-carousel-off", index === slides.length - 1);
  }
  // Everything a probe can change, as first shown: at creation and on restore.
  function reset(value) { index = value; show(); }
  reset(state);

  return {
    state: () => index,
    restore: reset,
    boxes(goal) {
      return { loc: kit.boxOf(host), core: kit.boxOf(row), goal: kit.boxOf(dots[goal]),
               now: kit.boxOf(dots[index]) };
    },
  };
});
