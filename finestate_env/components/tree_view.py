"""Tree view: a file/folder tree in a side panel, folders expanded by their twisties.

The tree has 2-4 levels and shows 8-20 rows; each folder row carries a twisty
(a chevron) before its icon and label, file rows a blank of the same width.
The state is the sorted list of the ids (slash-joined paths, "src/components")
of the expanded folders. A sampled current state expands only folders whose
ancestors are expanded too (what the panel shows is the whole state).

One action: click one folder's twisty. It toggles that folder's expansion and
nothing else: expanding shows its children (the rows below shift down),
collapsing hides its subtree but keeps the expansion flags of the folders
inside it, as VS Code's explorer does, so a collapsed subtree reopens as it
was. A click anywhere else on a row (icon, label, indent) only selects the row
visually and never changes the state. The goal is the state with one named,
visible folder toggled: usually expanded, sometimes collapsed. The panel has a
fixed height (enough rows for both states), so the layout above the target and
the panel's place on the page are the same before and after the action.

Episodes of several gestures (env `max_actions=K`): the goal may be a folder n levels
inside a collapsed one, n drawn from 1..K, expanded with every folder above it (a
chain of n collapsed folders, the first one visible, as deep as the tree has and as
the panel's rows hold). The oracle clicks the chain's twisties top-down: n gestures
(`oracle_actions`). The goal box is the twisty of the first visible folder that
differs from the goal, `now` its row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import field_validator, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    sample_anchor,
    set_code,
    set_distance,
    size_within,
)
from finestate_env.components.params import (
    MAX_ITEMS,
    Anchor,
    Index,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

# (panel titles, folder names, file names). Folder names are drawn without
# replacement, so every folder of a tree has a distinct name and an instruction
# naming one is never ambiguous.
_THEMES = (
    (("EXPLORER", "Project", "Workspace", "Files"),
     ("src", "components", "hooks", "utils", "pages", "services", "styles", "assets", "api",
      "models", "store", "lib", "tests", "unit", "e2e", "fixtures", "docs", "guides", "public",
      "images", "icons", "fonts", "scripts", "config", "layouts", "routes", "middleware",
      "plugins", "types", "locales", "migrations", "templates", "widgets", "helpers", "views",
      "controllers", "mocks", "reducers", "schemas", "static"),
     ("index.ts", "App.tsx", "main.ts", "Button.tsx", "Header.tsx", "Footer.tsx", "Modal.tsx",
      "api.ts", "client.ts", "helpers.ts", "format.ts", "theme.css", "global.css", "README.md",
      "package.json", "tsconfig.json", ".gitignore", "LICENSE", "vite.config.ts", "setup.ts",
      "routes.ts", "store.ts", "types.ts", "logo.svg", "favicon.ico", "en.json", "de.json",
      "auth.test.ts", "app.spec.ts", "deploy.sh", "Makefile", "Dockerfile")),
    (("Documents", "Shared drive", "Company files", "Finance"),
     ("Invoices 2026", "Invoices 2025", "Receipts", "Contracts", "Tax returns", "Q1", "Q2", "Q3",
      "Q4", "January", "February", "March", "April", "Clients", "Acme Corp", "Northwind",
      "Suppliers", "Payroll", "Reports", "Drafts", "Archive", "Templates", "Legal", "HR",
      "Onboarding", "Policies", "Meetings", "Minutes", "Budgets", "Marketing", "Campaigns",
      "Press kit", "Website redesign", "Board", "Insurance", "Bank statements", "Expenses",
      "Travel", "Scans"),
     ("invoice-0142.pdf", "invoice-0143.pdf", "summary.xlsx", "budget.xlsx", "notes.docx",
      "contract.pdf", "scan-031.jpg", "agenda.docx", "minutes.docx", "report.pdf",
      "overview.pptx", "checklist.md", "letter.docx", "statement.pdf", "timesheet.xlsx",
      "logo.png", "forecast.xlsx", "receipt-0087.pdf", "handbook.pdf", "NDA.pdf")),
    (("Library", "Media", "My drive", "Gallery"),
     ("Photos", "2024", "2025", "2026", "Summer trip", "Family", "Screenshots", "Music", "Albums",
      "Podcasts", "Videos", "Wallpapers", "Camera roll", "Edited", "Raw", "Favorites", "Birthday",
      "Wedding", "Holidays", "Lisbon", "Kyoto", "Iceland", "Pets", "Recordings", "Voice memos",
      "Playlists", "Live sets", "Exports", "Clips", "Drone", "Portraits", "Landscapes",
      "Projects", "Archive", "Shared", "Backups"),
     ("IMG_2041.jpg", "IMG_2042.jpg", "IMG_3310.heic", "DSC_0193.NEF", "beach.png", "sunset.jpg",
      "cover.jpg", "track01.mp3", "track02.mp3", "intro.wav", "episode-12.mp3", "clip-01.mp4",
      "timelapse.mov", "notes.txt", "playlist.m3u", "thumbnail.png", "edit.xmp", "video.mp4")),
)
_LEVELS = (2, 4)
# The most folders a tree has (_tree): up to 4 roots, each with up to 2 sub-folders on each
# level below it, to the deepest level of _LEVELS (2 + 2 * 2 under a root of 4 levels).
_MOST_FOLDERS = 4 * (1 + 2 + 2 * 2)
_ROWS = (8, 20)
_ROW_PX = (24, 30)
_TWISTY_PX = (16, 20)   # square hit target, at least 4 px shorter than a row
_INDENT_PX = (12, 20)
_WIDTH = (220, 300)
_EXPAND_SHARE = 0.75    # share of goals that expand (the rest collapse)
# Panel height besides the rows: border, padding, title and its margin (tree_view.css).
_CHROME_HEIGHT = 2 + 2 * 10 + 20 + 6
_ATTEMPTS = 200


def _folders(tree: list[dict], prefix: str = "") -> dict[str, dict]:
    """Every folder of `tree` by id (its slash-joined path), in preorder."""
    found: dict[str, dict] = {}
    for node in tree:
        if "children" in node:
            path = prefix + node["name"]
            found[path] = node
            found.update(_folders(node["children"], path + "/"))
    return found


def _visible(tree: list[dict], expanded: set[str], prefix: str = "") -> list[str]:
    """Ids of the rows the panel shows for `expanded`, top to bottom."""
    rows = []
    for node in tree:
        path = prefix + node["name"]
        rows.append(path)
        if "children" in node and path in expanded:
            rows += _visible(node["children"], expanded, path + "/")
    return rows


def _states(rng: np.random.Generator, tree: list[dict]) -> tuple[set[str], str, set[str]] | None:
    """(expanded, target, goal): folders expanded top-down (no hidden folder is), a shown
    folder to toggle, usually one to expand, and the state with it toggled; None when no
    shown folder can be toggled the drawn way."""
    folders = _folders(tree)
    share = float(rng.uniform(0.3, 0.7))
    expanded: set[str] = set()
    for path in folders:
        parent = path.rpartition("/")[0]
        if (not parent or parent in expanded) and rng.random() < share:
            expanded.add(path)
    expand = rng.random() < _EXPAND_SHARE
    candidates = [p for p in _visible(tree, expanded) if p in folders and (p in expanded) != expand]
    if not candidates:
        return None
    target = choose(rng, candidates)
    return expanded, target, expanded ^ {target}


class TreeNode(Params):
    """A folder ({"name", "children"}) or a file ({"name"}) of the tree."""

    name: Text
    children: list_of(TreeNode) | None = None  # a folder's nodes (absent for a file)

    @model_validator(mode="after")
    def _a_file_or_a_folder(self) -> TreeNode:
        if "/" in self.name:
            raise ValueError(f"a name may not hold '/' (ids join names with it), got "
                             f"{self.name!r}")
        if "children" in self.model_fields_set and self.children is None:
            raise ValueError("children must be a list (a folder's) or absent (a file), "
                             "not null")
        return self


class TreeViewParams(Params):
    title: Text  # the panel's title
    tree: list_of(TreeNode, 1)  # the roots, in order
    target: Text  # the id (slash-joined path) of the folder to toggle
    selected: Text | None  # the id of the row shown selected, or null
    row_height: Pixels
    twisty: Pixels  # the twisty's square hit target
    indent: Pixels  # per level
    rows: Index  # the panel's height, in rows
    width: Pixels  # the panel's width
    anchor: Anchor

    @field_validator("tree", mode="before")
    @classmethod
    def _a_small_tree(cls, tree: Any) -> Any:
        """At most _LEVELS[1] levels and MAX_ITEMS nodes, walked before the nodes are
        checked (so a hostile tree is never recursed into)."""
        if not isinstance(tree, list):
            return tree  # the field's type refuses it
        count, stack = 0, [(tree, 1)]
        while stack:
            nodes, level = stack.pop()
            if level > _LEVELS[1]:
                raise ValueError(f"the tree may be at most {_LEVELS[1]} levels deep")
            count += len(nodes)
            if count > MAX_ITEMS:
                raise ValueError(f"the tree may hold at most {MAX_ITEMS} nodes")
            stack += [(node["children"], level + 1) for node in nodes
                      if isinstance(node, dict) and isinstance(node.get("children"), list)]
        return tree

    @field_validator("tree")
    @classmethod
    def _distinct_names(cls, tree: list[TreeNode]) -> list[TreeNode]:
        """Distinct ids, distinct folder names (an instruction names one), at most
        _MOST_FOLDERS folders (the goal vector has one number per folder)."""
        folders: list[str] = []
        stack = [tree]
        while stack:
            nodes = stack.pop()
            names = [node.name for node in nodes]
            if len(set(names)) != len(names):
                raise ValueError(f"the names of a folder's nodes must be distinct, got {names}")
            folders += [node.name for node in nodes if node.children is not None]
            stack += [node.children for node in nodes if node.children is not None]
        if len(folders) > _MOST_FOLDERS:
            raise ValueError(f"the tree may hold at most {_MOST_FOLDERS} folders, got "
                             f"{len(folders)}")
        if len(set(folders)) != len(folders):
            twice = sorted({name for name in folders if folders.count(name) > 1})
            raise ValueError(f"the folders' names must be distinct, got {twice} twice")
        return tree

    @model_validator(mode="after")
    def _rows_of_the_tree(self) -> TreeViewParams:
        tree = [node.model_dump(exclude_unset=True) for node in self.tree]
        if self.target not in _folders(tree):
            raise ValueError(f"target must be the id of a folder of the tree, got "
                             f"{self.target!r}")
        if self.selected is not None and self.selected not in _ids(tree):
            raise ValueError(f"selected must be the id of a row of the tree or null, got "
                             f"{self.selected!r}")
        return self


def _ids(tree: list[dict], prefix: str = "") -> list[str]:
    """Every node's id, in preorder."""
    return [path for node in tree
            for path in [prefix + node["name"],
                         *_ids(node.get("children", []), prefix + node["name"] + "/")]]


class TreeView(ComponentType):
    name = "tree_view"
    params_model = TreeViewParams
    family = "view_manipulation"
    gesture = "tap"
    code_size = _MOST_FOLDERS
    goal_params = ("target",)
    aliases = ("Tree",)
    # Qt's tree frame is taller than the web's: sampled for 8 px less.
    slots = {
        "web": Slot(target=644, narrow=True),
        "mobile": Slot(target=360),
        "desktop": Slot(target=644, narrow=True, pad=(0, 8)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def _tree(self, rng: np.random.Generator, levels: int, folder_pool: list[str],
              file_pool: tuple[str, ...]) -> list[dict]:
        """A tree exactly `levels` deep: folders on levels 1..levels-1, files on any level."""
        names = iter(folder_pool)

        def folder_children(level: int, deep: bool) -> list[dict]:
            # `level` is the level of the children; `deep` forces one chain to full depth.
            max_folders = 0 if level >= levels else (3 if level == 1 else 2)
            count = int(rng.integers(1 if deep else 0, max_folders + 1)) if max_folders else 0
            files = int(rng.integers(0 if count else 1, 4))
            children = []
            for i in range(count):
                name = next(names, None)
                if name is None:
                    break
                children.append({"name": name, "children": folder_children(
                    level + 1, deep and i == 0)})
            picked = rng.choice(len(file_pool), size=files, replace=False)
            children += [{"name": file_pool[int(k)]} for k in sorted(picked)]
            return children

        root_folders = int(rng.integers(2, 5))
        roots = []
        for i in range(root_folders):
            roots.append({"name": next(names), "children": folder_children(2, i == 0)})
        picked = rng.choice(len(file_pool), size=int(rng.integers(1, 4)), replace=False)
        roots += [{"name": file_pool[int(k)]} for k in sorted(picked)]
        return roots

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        titles, folder_names, file_names = choose(rng, _THEMES)
        row = int(rng.integers(_ROW_PX[0], _ROW_PX[1] + 1))
        free = viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT
        # A small screen gets short rows: at least 10 fit (8 rows and an expansion).
        row = max(_ROW_PX[0], min(row, free // (_ROWS[0] + 2)))
        max_rows = min(_ROWS[1], free // row)
        twisty = int(rng.integers(_TWISTY_PX[0], min(_TWISTY_PX[1], row - 4) + 1))
        if touch:  # a phone's twisty fills a TOUCH_TARGET row, so fewer rows fit
            row = twisty = TOUCH_TARGET
            max_rows = min(_ROWS[1], free // row)
        # A phone page's slot may hold fewer than 8 finger-sized rows and an expansion:
        # the tree then shows as few as 4 (a whole screen always fits the 8).
        fewest = max(4, min(_ROWS[0], max_rows - 2))
        for _ in range(_ATTEMPTS):
            levels = int(rng.integers(_LEVELS[0], _LEVELS[1] + 1))
            pool = [folder_names[int(i)] for i in rng.permutation(len(folder_names))]
            tree = self._tree(rng, levels, pool, file_names)
            drawn = _states(rng, tree)
            if drawn is None:
                continue
            expanded, target, goal = drawn
            rows, goal_rows = _visible(tree, expanded), _visible(tree, goal)
            if not all(fewest <= len(r) <= max_rows for r in (rows, goal_rows)):
                continue
            height = min(max_rows, max(len(rows), len(goal_rows)) + int(rng.integers(0, 3)))
            selectable = [p for p in rows if p != target]
            title = choose(rng, titles)
            selected = choose(rng, selectable) if rng.random() < 0.7 else None
            indent = int(rng.integers(_INDENT_PX[0], _INDENT_PX[1] + 1))
            width = size_within(rng, _WIDTH, viewport[0] - 2 * STAGE_MARGIN)
            if touch:
                # A child's twisty starts under its parent's chevron or further
                # right, so the indent guide under that chevron stays in view;
                # a phone's panel takes the screen's width.
                indent = max(indent, twisty // 2 + 4)
                width = viewport[0] - 2 * STAGE_MARGIN
            params = {
                "title": title, "tree": tree, "target": target, "selected": selected,
                "row_height": row, "twisty": twisty,
                "indent": indent, "rows": height, "width": width,
                "anchor": sample_anchor(rng),
            }
            return Sample(params, sorted(expanded), sorted(goal))
        raise RuntimeError(f"tree_view: no tree of {_ROWS} rows in {_ATTEMPTS} attempts "
                           f"for viewport {viewport}")

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """New expanded folders and a new folder to toggle in the same tree and panel: both
        states' rows fit the panel's rows, and the selected row stays shown and untoggled.
        Should no draw fit (none failed in 2,000 on each level 0 control), `sample`'s
        states stay."""
        params = sample.params
        tree, height, selected = params["tree"], params["rows"], params["selected"]
        # sample's fewest rows are max(4, min(8, rows that fit - 2)); the panel's `rows`,
        # at most the rows that fit, gives that or fewer
        fewest = max(4, min(_ROWS[0], height - 2))
        for _ in range(_ATTEMPTS):
            drawn = _states(rng, tree)
            if drawn is None:
                continue
            expanded, target, goal = drawn
            rows = _visible(tree, expanded)
            if (all(fewest <= len(r) <= height for r in (rows, _visible(tree, goal)))
                    and (selected is None or (selected != target and selected in rows))):
                return Sample({**params, "target": target}, sorted(expanded), sorted(goal))
        return sample

    def far_goal(self, rng: np.random.Generator, sample: Sample, reach: int) -> Sample:
        """A chain of n collapsed folders expanded, n drawn from 1..reach, the deepest one
        named; a tree whose chains are shorter (or would overflow the panel) gives the
        longest it has."""
        n = int(rng.integers(1, reach + 1))
        if n == 1:
            return sample
        params, expanded = sample.params, set(sample.current_state)
        folders = _folders(params["tree"])
        shown = _visible(params["tree"], expanded)

        def chains(path: str) -> list[list[str]]:
            """Downward paths of sub-folders from `path`, at most n folders long."""
            found = [[path]]
            for child in folders[path]["children"]:
                if "children" in child and len(found[0]) < n:
                    found += [[path, *rest] for rest in chains(f"{path}/{child['name']}")
                              if len(rest) < n]
            return found

        fitting = [chain for path in shown if path in folders and path not in expanded
                   for chain in chains(path)
                   if len(_visible(params["tree"], expanded | set(chain))) <= params["rows"]]
        longest = max((len(chain) for chain in fitting), default=0)
        if longest < 2:
            return sample
        chain = choose(rng, [c for c in fitting if len(c) == longest])
        return Sample({**params, "target": chain[-1]}, sample.current_state,
                      sorted(expanded | set(chain)))

    def oracle_actions(self, params: dict[str, Any], current: Any, goal: Any) -> int:
        """A twisty click per folder that differs, top-down."""
        if not (isinstance(current, list) and isinstance(goal, list)):
            return 1
        return max(1, len(set(current) ^ set(goal)))

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        folders = _folders(params["tree"])

        def valid(state: Any) -> bool:
            return (isinstance(state, list) and all(isinstance(s, str) for s in state)
                    and state == sorted(set(state)) and all(s in folders for s in state))

        return valid(a) and valid(b) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: one number per folder of the tree, in preorder: 1.0 expanded."""
        return set_code(state, list(_folders(params["tree"])))

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """Folders whose open or closed state differs from the goal / folders in the tree."""
        if not (self.states_equal(state, state, params) and self.states_equal(goal, goal, params)):
            return 1.0
        return set_distance(state, goal, sorted(_folders(params["tree"])))

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        target, title = sample.params["target"], sample.params["title"]
        parent, _, name = target.rpartition("/")
        parent_name = parent.rpartition("/")[2]
        if parent and parent not in sample.current_state:  # inside a collapsed folder
            path = " > ".join(target.split("/"))
            templates = [f"Expand the '{name}' folder inside '{parent_name}', and the folders "
                         "above it.",
                         f"Open {path} in the {title} tree.",
                         f"Show the contents of the '{name}' folder ({path})."]
        elif target in sample.goal_state:
            templates = [f"Expand the '{name}' folder.",
                         f"Show the contents of the '{name}' folder.",
                         f"Click the arrow next to '{name}' to expand it.",
                         f"Expand '{name}' in the {title} tree."]
            if parent:
                templates.append(f"Expand the '{name}' folder inside '{parent_name}'.")
        else:
            templates = [f"Collapse the '{name}' folder.",
                         f"Hide the contents of the '{name}' folder.",
                         f"Click the arrow next to '{name}' to collapse it.",
                         f"Collapse '{name}' in the {title} tree."]
            if parent:
                templates.append(f"Collapse the '{name}' folder inside '{parent_name}'.")
        locate = choose(rng, (f"Locate the '{name}' folder in the {title} panel.",
                              f"Find the '{name}' row in the file tree.",
                              f"Where is the '{name}' folder?"))
        return Instructions(locate=locate, interact=choose(rng, templates))

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return "expanded: " + (", ".join(state) if state else "(none)")
