"use strict";
// Accordion: a click on a header opens its section and closes the open one, or
// closes it if it is the open one. Bodies, borders and gaps have no handler.
FineState.define("accordion", (host, params, state, kit) => {
  let open = state;  // the open section's title, or null
  const sections = params.titles.map((title, i) => {
    const chevron = kit.el("div", { class: "fs-acc-chevron" });
    const header = kit.el("div", { class: `fs-acc-header fs-acc-chevron-${params.chevron}`,
                                   style: { height: `${params.header}px` } },
      kit.el("span", { class: "fs-acc-text", text: title }), chevron);
    const body = kit.el("div", { class: "fs-acc-body" },
      ...params.bodies[i].map((text) => kit.el("div", { class: "fs-acc-line", text })));
    const section = kit.el("div", { class: "fs-acc-section" }, header, body);
    kit.onTrusted(header, "click", () => { open = open === title ? null : title; show(); });
    return { title, header, body, section };
  });
  const byTitle = new Map(sections.map((s) => [s.title, s]));
  const list = kit.el("div", { class: `fs-acc-list fs-acc-${params.style}` },
    ...sections.map((s) => s.section));
  const card = kit.el("div", { class: "fs-card fs-acc-card",
                               style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-acc-title", text: params.title }), list);
  host.append(card);

  function show() {
    for (const s of sections) s.section.classList.toggle("fs-acc-open", s.title === open);
  }
  show();

  return {
    state: () => open,
    restore(value) { open = value; show(); },
    boxes(goal) {
      // The goal's header: the section to open, or (goal null) the one to close,
      // which is the open one here or, where none is open, the one named in params.
      const target = byTitle.get(goal ?? open ?? params.closing);
      const shown = open === null ? sections[0] : byTitle.get(open);
      return {
        loc: kit.boxOf(card),
        core: kit.boxOf(list),
        // Headers are full width and bounded by borders, bodies or other headers:
        // a header's box is its region.
        goal: kit.boxOf(target.header),
        now: kit.boxOf(shown.header),
      };
    },
  };
});
