"""tree_view, as a native Qt control (family D, view manipulation).

tree_view: a QTreeWidget; a press on a folder's branch indicator (the
indentation cell before its icon, QTreeView's decoration rect) expands or
collapses it, and Qt keeps the expansion flags inside a collapsed folder, as
the type defines.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class TreeViewControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.tree = QTreeWidget(self.card)
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.setIndentation(p["indent"])
        self.tree.setRootIsDecorated(True)
        self.tree.setAnimated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setExpandsOnDoubleClick(False)
        self.tree.setFocusPolicy(Qt.NoFocus)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.tree.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.items: dict[str, QTreeWidgetItem] = {}
        self._add(self.tree.invisibleRootItem(), p["tree"], "")
        frame = self.tree.frameWidth()
        self.tree.setFixedSize(p["width"], p["rows"] * p["row_height"] + 2 * frame)
        for path in state:
            self.items[path].setExpanded(True)
        selected = next((i for k, i in self.items.items() if k.split("/")[-1] == p["selected"]),
                        None) if p.get("selected") else None
        if selected is not None:
            selected.setSelected(True)
        self.card.add(self.tree)

    def _add(self, parent: QTreeWidgetItem, nodes: list[dict], prefix: str) -> None:
        for node in nodes:
            path = prefix + node["name"]
            item = QTreeWidgetItem(parent, [node["name"]])
            item.setSizeHint(0, QSize(0, self.params["row_height"]))
            if "children" in node:
                self.items[path] = item
                item.setChildIndicatorPolicy(QTreeWidgetItem.ShowIndicator)
                self._add(item, node["children"], path + "/")

    def state(self) -> Any:
        return sorted(path for path, item in self.items.items() if item.isExpanded())

    def _twisty(self, path: str) -> kit.Box:
        rect = self.tree.visualItemRect(self.items[path])
        rect.setLeft(rect.left() - self.tree.indentation())
        rect.setWidth(self.tree.indentation())
        return kit.box_of(self.tree.viewport(), rect)

    def _shown(self, path: str) -> bool:
        """Every folder above `path` is expanded."""
        parts = path.split("/")
        return all(self.items["/".join(parts[:i])].isExpanded() for i in range(1, len(parts)))

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        # The next twisty of the route: the first visible folder (in row order) that differs
        # from the goal; the target alone, unless the goal lies inside collapsed folders.
        wanted = set(goal)
        target = next((path for path, item in self.items.items()
                       if item.isExpanded() != (path in wanted) and self._shown(path)),
                      self.params["target"])
        twisty = self._twisty(target)
        row = kit.box_of(self.tree.viewport(), self.tree.visualItemRect(self.items[target]))
        return {"loc": kit.box_of(self.card), "core": twisty, "goal": twisty,
                "now": [twisty[0], row[1], row[2], row[3]]}

    def reach(self, goal: Any) -> int:
        """A twisty click per folder that differs."""
        return len(set(self.state()) ^ set(goal))


CONTROL = TreeViewControl
