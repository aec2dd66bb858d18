"use strict";
// Tree view: a click on a folder's twisty toggles its expansion; a click
// elsewhere on a row only selects it. The state is the sorted list of the ids
// of the expanded folders; collapsing keeps the flags of the folders inside.
FineState.define("tree_view", (host, params, state, kit) => {
  const { row_height: rowHeight, twisty: twistySize, indent } = params;
  let expanded, selected;  // set by reset
  // Whole-pixel offsets that centre the twisty, the icon and the text in a row.
  const twistyTop = Math.floor((rowHeight - twistySize) / 2);
  const iconTop = Math.floor((rowHeight - 14) / 2);

  const tree = kit.el("div", { class: "fs-tree-rows",
    style: { height: `${params.rows * rowHeight}px` } });
  // One handler on the rows' container selects the clicked row, rather than one
  // per row: a tap's touch adjustment weighs the innermost elements with a click
  // handler near the finger, and on a phone, with one handler per row, the row
  // just below a twisty (edge to edge with it) took taps on its bottom corners.
  kit.onTrusted(tree, "click", (event) => {
    const row = event.target.closest(".fs-tree-row");
    const id = [...shown].find(([, r]) => r.row === row)?.[0];
    if (id !== undefined) { selected = id; show(); }
  });
  host.append(kit.el("div", { class: "fs-card fs-tree-panel", style: { width: `${params.width}px` } },
    kit.el("div", { class: "fs-label fs-tree-title", text: params.title }), tree));

  let shown = new Map();  // id -> {row, twisty} for the visible rows
  function rowFor(node, id, depth) {
    const folder = Array.isArray(node.children);
    const open = folder && expanded.has(id);
    const guides = Array.from({ length: depth }, () => kit.el("span", {
      class: "fs-tree-guide", style: { width: `${indent}px`, height: `${rowHeight}px`,
        backgroundPosition: `${Math.floor(twistySize / 2)}px 0` } }));
    // The twisty is a square hit target; its chevron is drawn by a child that
    // ignores the pointer, so that nothing outside the square toggles.
    const twisty = kit.el("span", {
      class: folder ? `fs-tree-twisty${open ? " fs-tree-open" : ""}` : "fs-tree-blank",
      style: { width: `${twistySize}px`, height: `${twistySize}px`, marginTop: `${twistyTop}px` },
    }, ...(folder ? [kit.el("span", { class: "fs-tree-chevron" })] : []));
    const icon = kit.el("span", {
      class: folder ? `fs-tree-folder${open ? " fs-tree-open" : ""}` : "fs-tree-file",
      style: { marginTop: `${folder ? iconTop + 2 : iconTop}px` } });  // a folder's tab is above it
    const row = kit.el("div", {
      class: `fs-tree-row${id === selected ? " fs-tree-selected" : ""}`,
      style: { height: `${rowHeight}px`, lineHeight: `${rowHeight}px` },
    }, ...guides, twisty, icon, kit.el("span", { class: "fs-tree-name", text: node.name }));
    if (folder) {
      kit.onTrusted(twisty, "click", (event) => {
        event.stopPropagation();  // the rows' handler would rebuild the rows a second time
        if (expanded.has(id)) expanded.delete(id); else expanded.add(id);
        selected = id;  // a twisty click selects its row too, as in real trees
        show();
      });
    }
    return { row, twisty };
  }
  function show() {
    shown = new Map();
    const walk = (nodes, prefix, depth) => {
      for (const node of nodes) {
        const id = prefix + node.name;
        shown.set(id, rowFor(node, id, depth));
        if (Array.isArray(node.children) && expanded.has(id)) walk(node.children, `${id}/`, depth + 1);
      }
    };
    walk(params.tree, "", 0);
    tree.replaceChildren(...[...shown.values()].map((r) => r.row));
  }
  // Everything a probe can change, as first shown: at creation and on restore.
  // A click selects its row, so the selection goes back too.
  // A probe that changed nothing leaves the rows as they are: rebuilding them would
  // give the same DOM at the cost of a new style and layout.
  function reset(value) {
    const same = expanded && selected === params.selected && expanded.size === value.length
      && value.every((id) => expanded.has(id));
    if (same) return;
    expanded = new Set(value);
    selected = params.selected;
    show();
  }
  reset(state);

  return {
    state: () => [...expanded].sort(),
    restore: reset,
    boxes(goal) {
      // The next twisty of the route: the first visible folder that differs from the
      // goal (the target alone, unless the goal lies inside collapsed folders).
      const wanted = new Set(goal);
      const target = [...shown].find(([id, r]) => r.twisty.classList.contains("fs-tree-twisty")
        && expanded.has(id) !== wanted.has(id))?.[1] ?? shown.get(params.target);
      // The smallest box holding every visible twisty: clicks in it that miss
      // the twisties land on indents, icons and labels, which change nothing.
      const twisties = [...shown.values()].filter((r) => r.twisty.classList.contains("fs-tree-twisty"))
        .map((r) => kit.boxOf(r.twisty));
      const core = [Math.min(...twisties.map((b) => b[0])), Math.min(...twisties.map((b) => b[1])),
                    Math.max(...twisties.map((b) => b[2])), Math.max(...twisties.map((b) => b[3]))];
      return {
        loc: kit.boxOf(host),
        core,
        goal: kit.boxOf(target.twisty),
        now: kit.boxOf(target.row),
      };
    },
    // Gestures the route still takes: a twisty click per folder that differs.
    reach(goal) {
      const wanted = new Set(goal);
      return new Set([...expanded].filter((id) => !wanted.has(id))
        .concat(goal.filter((id) => !expanded.has(id)))).size;
    },
  };
});
