"use strict";
// Date picker: a click on a day of the shown month selects it. Dates are built
// in UTC so that the page's time zone can never shift a day.
FineState.define("date_picker", (host, params, state, kit) => {
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                  "September", "October", "November", "December"];
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const { cell, week_start: weekStart } = params;
  // The popup's side padding and the month arrows' size: a phone's finger-sized
  // cells leave little room for the one and need bigger arrows.
  const padX = params.pad ?? FineStateMeasures.date_picker.pad;
  const nav = params.nav ?? 32;
  let selected, year, month;  // "YYYY-MM-DD"; the shown month, 1-based
  // The popup opens on the selected day's month, whichever month a probe turned to.
  function select(iso) {
    selected = iso;
    [year, month] = iso.split("-").map(Number);
  }
  select(state);
  const cells = new Map();  // ISO date -> cell, for the days of the shown month

  const pad = (n) => String(n).padStart(2, "0");
  function format(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    const weekday = DAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
    switch (params.format) {
      case "dmy": return `${pad(d)}/${pad(m)}/${y}`;
      case "us": return `${MONTHS[m - 1].slice(0, 3)} ${d}, ${y}`;
      case "long": return `${weekday.slice(0, 3)}, ${d} ${MONTHS[m - 1]} ${y}`;
      default: return iso;
    }
  }

  const text = kit.el("div", { class: "fs-date-text" });
  const field = kit.el("div", { class: "fs-date-field" }, text,
                       kit.el("div", { class: "fs-date-icon" }));
  const title = kit.el("div", { class: "fs-date-title" });
  const prev = kit.el("div", { class: "fs-date-nav", text: "\u2039" });
  const next = kit.el("div", { class: "fs-date-nav", text: "\u203a" });
  const names = Array.from({ length: 7 }, (_, i) =>
    kit.el("div", { text: DAYS[(i + weekStart) % 7].slice(0, 2) }));
  const grid = kit.el("div", { class: "fs-date-grid" });
  const popup = kit.el("div", { class: "fs-date-popup" },
    kit.el("div", { class: "fs-date-header" }, prev, title, next),
    kit.el("div", { class: "fs-date-weekdays" }, ...names), grid);
  host.style.setProperty("--cell", `${cell}px`);
  host.style.setProperty("--pad-x", `${padX}px`);
  host.style.setProperty("--nav", `${nav}px`);
  // A fixed width: the field's text must never resize the control (layouts
  // before and after the action must match); 2 = the popup's borders.
  host.style.width = `${7 * cell + 2 * padX + 2}px`;
  host.append(kit.el("div", { class: "fs-label", text: params.label }), field, popup);

  function show() {
    text.textContent = format(selected);
    title.textContent = `${MONTHS[month - 1]} ${year}`;
    cells.clear();
    const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() - weekStart + 7) % 7;
    // Always six weeks, so the popup keeps its size from month to month.
    grid.replaceChildren(...Array.from({ length: 42 }, (_, i) => {
      const day = new Date(Date.UTC(year, month - 1, 1 + i - lead));
      const iso = day.toISOString().slice(0, 10);
      const inMonth = day.getUTCMonth() === month - 1;
      const classes = ["fs-date-day", inMonth ? "" : "fs-date-out",
                       iso === selected && inMonth ? "fs-date-selected" : ""];
      // The cell is the square hit target; the round mark is drawn by its child,
      // since hit testing follows border-radius.
      const node = kit.el("div", { class: classes.join(" ").trim() },
                          kit.el("span", { text: String(day.getUTCDate()) }));
      if (inMonth) {
        cells.set(iso, node);
        kit.onTrusted(node, "click", () => { selected = iso; show(); });
      }
      return node;
    }));
  }
  function turn(delta) {
    const first = new Date(Date.UTC(year, month - 1 + delta, 1));
    [year, month] = [first.getUTCFullYear(), first.getUTCMonth() + 1];
    show();
  }
  // Months from the shown one to the month of `iso`: > 0 ahead, < 0 behind.
  function monthsTo(iso) {
    const [y, m] = iso.split("-").map(Number);
    return (y - year) * 12 + (m - month);
  }
  kit.onTrusted(prev, "click", () => turn(-1));
  kit.onTrusted(next, "click", () => turn(1));
  show();

  return {
    state: () => selected,
    restore(value) { select(value); show(); },
    boxes(goal) {
      const core = kit.boxOf(grid);
      // A goal in another month (episodes of several gestures): the arrow toward its
      // month, the next gesture of the shortest route. The selected day, once its month
      // is turned away, is shown in the field only.
      const shown = cells.get(goal);
      const toward = monthsTo(goal) > 0 ? next : prev;
      return {
        loc: kit.boxOf(host),
        core,
        // Cells tile the grid edge to edge: the goal's cell is exactly its region.
        goal: kit.boxOf(shown || toward),
        now: kit.boxOf(cells.get(selected) || field),
      };
    },
    // Gestures the shortest route still takes: a click per month to turn, then the day.
    reach(goal) {
      return goal === selected ? 0 : Math.abs(monthsTo(goal)) + 1;
    },
  };
});
