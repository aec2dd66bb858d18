"""Files in and out without a browser: the external layouts (hand-written samples in
tests/data), coordinate conventions (property-based), bad lines, and static scoring
with hand-computed numbers."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finestate_env import components
from finestate_env.core import coords, static_scoring
from finestate_env.core.schema import (
    Boxes,
    BoxSet,
    Instance,
    Instructions,
    Prediction,
    Size,
    StageVerdicts,
)
from finestate_env.core.static_scoring import score, score_prediction
from finestate_env.datasets import formats
from finestate_env.datasets.formats import FormatError, read_instances, read_predictions
from finestate_env.datasets.formats.finestate_bench import parse_finestate_bench
from finestate_env.datasets.formats.imported import (
    IdAssigner,
    SizeFinder,
    canonical_type,
    family_from_type,
)

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

DATA = Path(__file__).parents[1] / "data"


def finestate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args],
                          capture_output=True, text=True, timeout=120)


def copy_images(folder: Path) -> None:
    """The test images in `folder/images`: copies, since a link out of a dataset's folder
    is refused (core/files.py)."""
    shutil.copytree(DATA / "images", folder / "images", dirs_exist_ok=True)


def write(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


# -- coordinate conventions -------------------------------------------------------------

pixels = st.integers(0, 4096)
sizes = st.tuples(st.integers(1, 4096), st.integers(1, 4096))
reals = st.floats(0, 4096, allow_nan=False, allow_infinity=False)


@given(x=pixels, y=pixels, w=pixels, h=pixels)
def test_xywh_xyxy_round_trip_is_exact_on_whole_pixels(x, y, w, h):
    xyxy = coords.xywh_to_xyxy((x, y, w, h))
    assert xyxy == (x, y, x + w, y + h)
    assert coords.xyxy_to_xywh(xyxy) == (x, y, w, h)
    assert coords.box_from_xyxy(coords.box_to_xyxy((x, y, w, h), "xywh"), "xywh") == (x, y, w, h)
    # The far edge is inclusive: (x + w, y + h) is in the box, one pixel beyond is not.
    assert coords.convert_box(xyxy, "pixel", "pixel")[2:] == (x + w, y + h)


@given(a=reals, b=reals, size=sizes, target=st.sampled_from(["normalized", "1000"]))
def test_conversions_are_monotone_so_inclusive_edges_survive(a, b, size, target):
    low, high = min(a, b), max(a, b)
    for axis in (0, 1):
        point_low = coords.convert_point((low, low), "pixel", target, size)[axis]
        point_high = coords.convert_point((high, high), "pixel", target, size)[axis]
        assert point_low <= point_high
        back_low = coords.convert_point((point_low, point_low), target, "pixel", size)[axis]
        back_high = coords.convert_point((point_high, point_high), target, "pixel", size)[axis]
        assert back_low <= back_high


@given(p=st.tuples(pixels, pixels), box=st.tuples(pixels, pixels, pixels, pixels), size=sizes,
       target=st.sampled_from(["normalized", "1000"]))
def test_point_in_box_verdict_is_the_same_in_every_convention(p, box, size, target):
    from finestate_env.core.scoring import point_in_box

    x1, x2 = sorted(box[0::2])
    y1, y2 = sorted(box[1::2])
    box = (x1, y1, x2, y2)
    converted_box = coords.convert_box(box, "pixel", target, size)
    converted_point = coords.convert_point(p, "pixel", target, size)
    assert point_in_box(converted_point, converted_box) == point_in_box(p, box)
    # A point on the box's far corner stays in it: edges are inclusive after conversion too.
    corner = coords.convert_point(box[2:], "pixel", target, size)
    assert point_in_box(corner, converted_box)


@given(x=reals, size=sizes, convention=st.sampled_from(["normalized", "1000"]))
def test_pixel_round_trip_is_within_one_rounding_per_operation(x, size, convention):
    # x / w * w is two correctly rounded operations: at most 2 ulp away, never more.
    there = coords.convert_point((x, x), "pixel", convention, size)
    back = coords.convert_point(there, convention, "pixel", size)
    for axis in (0, 1):
        assert abs(back[axis] - x) <= 4 * math.ulp(max(x, 1.0))
    assert coords.convert_point((x, x), "pixel", "pixel") == (x, x)


def test_normalized_and_1000_need_no_size_but_pixels_do():
    assert coords.convert_point((0.25, 0.5), "normalized", "1000") == (250.0, 500.0)
    assert coords.convert_point((250, 500), "1000", "normalized") == (0.25, 0.5)
    assert coords.convert_point((0.25, 0.5), "normalized", "pixel", (200, 100)) == (50.0, 50.0)
    with pytest.raises(ValueError, match="needs the image size"):
        coords.convert_point((0.25, 0.5), "normalized", "pixel")
    assert coords.needs_size("pixel", "1000") and not coords.needs_size("1000", "normalized")


# -- released FineState-Bench layouts -------------------------------------------------------


def test_released_web_records_are_read_with_their_fallbacks():
    read = read_instances(DATA / "finestate_bench_web.jsonl")
    assert read.layout == "finestate-bench-web" and read.skipped == []
    slider, switch, date, carousel = read.items
    # Ids: the image path, with #2 for the second record of the same image.
    assert [i.id for i in read.items] == ["images/web_a.png", "images/web_a.png#2",
                                         "images/web_b.png", "images/web_b.png#2"]
    assert [(i.component, i.family) for i in read.items] == [
        ("slider", "numeric_range"), ("switch", "toggle_option"),
        ("date_picker", "specific_data"), ("carousel", "view_manipulation")]
    assert all(i.platform == "web" and i.live is None and i.gesture is None for i in read.items)
    assert slider.size == Size(width=200, height=100)  # read from tests/data/images/web_a.png
    assert slider.normalized_boxes == Boxes(loc=(0.1, 0.1, 0.5, 0.3), core=(0.1, 0.1, 0.5, 0.3),
                                            goal=(0.4, 0.1, 0.45, 0.3),
                                            now=(0.2, 0.1, 0.25, 0.3))
    assert slider.boxes.current.loc == (20.0, 10.0, 100.0, 30.0)
    assert slider.boxes.target == slider.boxes.current
    assert (slider.current_state, slider.goal_state) == (20, 45)
    assert slider.instructions == Instructions(locate="Locate the Brightness slider.",
                                               interact="Set Brightness to 45.")
    # now_coords null and target_coords [] both fall back to bbox, as the released code does.
    bbox = (0.6, 0.5, 0.8, 0.7)
    assert switch.normalized_boxes == Boxes(loc=bbox, core=bbox, goal=bbox, now=bbox)


def test_released_desktop_records_use_their_spelling_and_category_folders():
    read = read_instances(DATA / "finestate_bench_desktop.jsonl", image_size=(1920, 1080))
    assert read.layout == "finestate-bench-desktop"
    volume, font = read.items
    assert volume.id == "desktop_en/ANumericRange240/volume_03.png"
    assert volume.image == volume.id
    assert (volume.platform, volume.component, volume.family) == ("desktop", "slider",
                                                                  "numeric_range")
    assert volume.normalized_boxes == Boxes(loc=(0.1, 0.2, 0.4, 0.25),
                                            core=(0.11, 0.21, 0.39, 0.24),
                                            goal=(0.3, 0.2, 0.31, 0.25),
                                            now=(0.15, 0.2, 0.17, 0.25))
    assert (font.component, font.family) == ("list_box", "specific_data")  # "Combo Box"
    loc = (0.5, 0.5, 0.7, 0.9)
    assert font.normalized_boxes == Boxes(loc=loc, core=loc, goal=(0.5, 0.8, 0.7, 0.85), now=loc)
    assert font.size == Size(width=1920, height=1080)


def test_a_record_whose_image_size_cannot_be_known_scores_in_its_normalised_frame():
    read = read_instances(DATA / "finestate_bench_desktop.jsonl")  # no image, no size
    volume, font = read.items
    assert (volume.size, volume.boxes) == (None, None)
    assert volume.normalized_boxes.goal == (0.3, 0.2, 0.31, 0.25)
    normalised = Prediction(id=volume.id, p0=(0.16, 0.22), p1=(0.305, 0.22),
                            coords="normalized")
    thousand = Prediction(id=font.id, p0=(600, 700), p1=(600, 900), coords="1000")
    records, summary = score(read.items, [normalised, thousand], "release")
    assert [r.verdicts.model_dump() for r in records] == [
        {"sr_loc": True, "sr_int": True, "es_sr_loc": True, "es_sr_int": True},
        {"sr_loc": True, "sr_int": False, "es_sr_loc": True, "es_sr_int": False}]
    assert records[0].coords == "normalized" and records[0].p1 == (0.305, 0.22)
    assert records[1].p1 == (0.6, 0.9) and records[1].to_json()["coords"] == "normalized"
    assert score(read.items, [normalised], "stagewise")[1]["overall"]["es_sr_int"] == 0.5
    # A point-less pixel prediction is a miss, which needs no size; a pixel point does.
    assert score(read.items, [Prediction(id=volume.id, coords="pixel")])[0][0].miss == "missing"
    with pytest.raises(static_scoring.SizeNeeded, match=(
            r"prediction 'desktop_en/ANumericRange240/volume_03.png' is in pixels, and "
            r"instance 'desktop_en/ANumericRange240/volume_03.png' has no image size")):
        score(read.items, [Prediction(id=volume.id, p0=(300, 220), coords="pixel")])
    # Given a size, the same records have pixel boxes again.
    sized = read_instances(DATA / "finestate_bench_desktop.jsonl", image_size=(1000, 500))
    assert sized.items[0].boxes.current.goal == (300.0, 100.0, 310.0, 125.0)


DESKTOP_RECORD = json.loads(
    (DATA / "finestate_bench_desktop.jsonl").read_text().splitlines()[0])
ABSENT = object()


def _with_interact(record: dict, value) -> dict:
    record = json.loads(json.dumps(record))
    if value is ABSENT:
        record["processing_details"].pop("interact", None)
    else:
        record["processing_details"]["interact"] = value
    return record


@pytest.mark.parametrize("value, core", [
    ([0.2, 0.22], None),  # a point
    ([0.12, 0.21, 0.38, 0.24], (0.12, 0.21, 0.38, 0.24)),  # a box
    ([120, 210, 380, 240], None),  # a box in pixels: not normalised
    (None, None),
    (ABSENT, None),
    ("slider track", None),
])
def test_desktop_interact_is_never_read_so_it_may_hold_anything(tmp_path, value, core):
    record = _with_interact(DESKTOP_RECORD, value)
    path = write(tmp_path / "desktop.jsonl", json.dumps(record))
    read = read_instances(path)
    assert read.layout == "finestate-bench-desktop" and read.skipped == []
    (instance,) = read.items
    loc = (0.1, 0.2, 0.4, 0.25)
    # The boxes the released code scores with are read; core is interact when it is a box.
    assert instance.normalized_boxes == Boxes(loc=loc, core=core or loc,
                                              goal=(0.3, 0.2, 0.31, 0.25),
                                              now=(0.15, 0.2, 0.17, 0.25))
    assert instance.source.layout == "finestate-bench-desktop"
    assert instance.source.record == record  # kept as given
    exported = formats.finestate_bench_record(instance)
    assert exported["processing_details"] == record["processing_details"]
    assert ("interact" in exported["processing_details"]) == (value is not ABSENT)
    assert {k: v for k, v in exported.items() if k not in ("id", "image", "platform", "family",
                                                           "gesture")} == {
        k: v for k, v in record.items() if k != "image"}
    # Out through the project layout and the released one, and in again: the same instance.
    projected = formats.write_instances([instance], tmp_path / "project.jsonl")
    assert read_instances(projected).items == [instance]
    formats.export_finestate_bench([instance], tmp_path / "again.jsonl")
    (again,) = read_instances(tmp_path / "again.jsonl").items
    assert again.normalized_boxes == instance.normalized_boxes
    assert again.source.record["processing_details"] == record["processing_details"]


@pytest.mark.parametrize("value", [[0.3, 0.2], [0.4, 0.1, 0.45, 0.3], None, ABSENT])
def test_web_records_with_an_interact_stay_web_records(tmp_path, value):
    copy_images(tmp_path)
    record = _with_interact(WEB_RECORD, value)
    record["processing_details"]["core_coords"] = [0.3, 0.2]  # unread too: ignored
    path = write(tmp_path / "web.jsonl", json.dumps(record))
    read = read_instances(path)
    assert read.layout == "finestate-bench-web"
    (instance,) = read.items
    bbox = (0.1, 0.1, 0.5, 0.3)
    assert instance.normalized_boxes == Boxes(loc=bbox, core=bbox, goal=(0.4, 0.1, 0.45, 0.3),
                                              now=(0.2, 0.1, 0.25, 0.3))
    assert instance.source.record == record
    assert formats.finestate_bench_record(instance)["processing_details"] == \
        record["processing_details"]


def test_fields_the_released_code_never_reads_may_hold_anything(tmp_path):
    copy_images(tmp_path)
    web = json.loads(json.dumps(WEB_RECORD))
    web.update(annotator={"name": "A", "pass": 2}, width="wide", height=None,
               tags=["hard"], gesture="swipe", family="misc")
    web["component"].update(name=None, current_state={"v": [1, 2]}, bounds=[1, 2])
    web["processing_details"].update(component_type_detected="Slider", score=0.93)
    desktop = json.loads(json.dumps(DESKTOP_RECORD))
    desktop.update(img_size="1920x1080", extra=None)
    desktop["component"].pop("type")  # the released code calls it "unknown"
    web_path = write(tmp_path / "web.jsonl", json.dumps(web))
    desktop_path = write(tmp_path / "desktop.jsonl", json.dumps(desktop))
    (w,) = read_instances(web_path).items
    assert (w.component, w.gesture, w.family) == ("slider", None, "numeric_range")
    assert w.size == Size(width=200, height=100)  # the image's, "wide" is not read
    assert w.current_state == {"v": [1, 2]} and w.source.record == web
    read = read_instances(desktop_path)
    (d,) = read.items
    assert (d.component, d.size) == ("unknown", None) and d.source.record == desktop
    assert read.unknown_types == {"unknown": 1}
    exported = formats.finestate_bench_record(w)
    assert (exported["annotator"], exported["tags"]) == ({"name": "A", "pass": 2}, ["hard"])
    assert exported["processing_details"]["score"] == 0.93
    # What the project knows replaces what it could not read; the rest stays as given.
    assert (exported["width"], exported["height"], exported["family"]) == (
        200, 100, "numeric_range")


@pytest.mark.parametrize("names, canonical", [
    (["Slider", "slider", "SLIDER"], "slider"),
    (["Knob", "Dial"], "knob"),
    (["Steeper", "Stepper", "Spin Box"], "stepper"),
    (["Seek Bar", "seek-bar", "SeekBar", "seek_bar"], "seek_bar"),
    (["Chart Point", "chart point"], "chart_point"),
    (["Switch", "Toggle Switch", "toggle"], "switch"),
    (["Check Box", "Checkbox", "check box", "CHECKBOX"], "checkbox"),
    (["Radio Group", "Radio Button", "radio"], "radio_group"),
    (["Tabs", "Tab", "Tab Bar"], "tabs"),
    (["Segmented", "Segmented Control"], "segmented"),
    (["Accordion"], "accordion"),
    (["Rating", "Star Rating"], "rating"),
    (["Color Picker", "Colour Picker"], "color_picker"),
    (["Date Picker", "Calendar"], "date_picker"),
    (["Time Picker", "time  picker"], "time_picker"),
    (["List Box", "Listbox", "Dropdown", "Drop-down", "Combo Box"], "list_box"),
    (["Drag Reorder", "Sortable List"], "drag_reorder"),
    (["Zoom Pan", "Zoom & Pan", "Zoom/Pan"], "zoom_pan"),
    (["Resizable Pane", "Splitter"], "resizable_pane"),
    (["Carousel"], "carousel"),
    (["Tree View", "TreeView"], "tree_view"),
    (["Scrollbar", "Scroll Bar"], "scrollbar"),
    (["Table Column", "Column Resize"], "table_column"),
])
def test_released_type_names_land_on_the_23_types(names, canonical):
    assert canonical in components.TYPE_NAMES
    assert [canonical_type(name) for name in names] == [canonical] * len(names)


def test_unknown_type_names_keep_their_own_group_and_are_counted(tmp_path):
    copy_images(tmp_path)
    lines = []
    for kind in ("Check Box", "Progress Bar", "progress bar", "Steeper", "Knob ", "Gauge"):
        record = json.loads(json.dumps(WEB_RECORD))
        record["component"]["type"] = kind
        lines.append(json.dumps(record))
    read = read_instances(write(tmp_path / "types.jsonl", *lines))
    assert [i.component for i in read.items] == ["checkbox", "progress_bar", "progress_bar",
                                                 "stepper", "knob", "gauge"]
    assert read.unknown_types == {"progress_bar": 2, "gauge": 1}
    summary = score(read.items, [])[1]
    assert list(summary["by_component"]) == ["checkbox", "gauge", "knob", "progress_bar",
                                             "stepper"]
    result = finestate("import", str(tmp_path / "types.jsonl"), "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"finestate: 3 records of {tmp_path / 'types.jsonl'} name a component type that is "
        'none of the 23 ("progress_bar" 2, "gauge" 1); each is kept as its own group\n')


def test_every_component_type_name_maps_to_its_own_family():
    for name, component in components.COMPONENTS.items():
        assert family_from_type(name) == component.family, name
    assert family_from_type("Volume Slider") == "numeric_range"
    assert family_from_type("expansion panel") == "toggle_option"
    assert family_from_type("frobnicator") is None


# -- ScreenSpot ------------------------------------------------------------------------------


def test_screenspot_v1_xywh_records():
    read = read_instances(DATA / "screenspot_v1.jsonl")
    assert read.layout == "screenspot-xywh"
    settings_icon, search = read.items
    assert settings_icon.boxes.current == Boxes(loc=(10, 20, 110, 60), core=(10, 20, 110, 60),
                                                goal=(10, 20, 110, 60), now=(10, 20, 110, 60))
    assert search.boxes.current.loc == (200, 150, 250, 180)
    assert settings_icon.size == Size(width=400, height=300)  # tests/data/images/ss.png
    assert (settings_icon.platform, search.platform) == ("mobile", "web")
    assert (settings_icon.component, search.component) == ("icon", "text")
    assert settings_icon.instructions.locate == settings_icon.instructions.interact
    assert settings_icon.normalized_boxes is None  # pixel boxes: scored in pixels
    assert [i.id for i in read.items] == ["images/ss.png", "images/ss.png#2"]


def test_screenspot_pro_xyxy_records_take_the_size_from_img_size():
    read = read_instances(DATA / "screenspot_pro.jsonl")
    assert read.layout == "screenspot-xyxy"
    first, second = read.items
    assert [first.id, second.id] == ["pro_1", "pro_2"]
    assert first.boxes.current.loc == (100, 200, 300, 260)
    assert first.size == Size(width=2560, height=1440) and first.platform == "desktop"


def test_screenspot_records_name_their_convention_and_come_back(tmp_path):
    instance = _hand_instance()
    for box_format in ("xyxy", "xywh"):
        for convention in ("pixel", "normalized", "1000"):
            path = tmp_path / f"ss-{box_format}-{convention}.jsonl"
            formats.export_screenspot([instance], path, box_format, convention)
            records = [json.loads(line) for line in path.read_text().splitlines()]
            assert [r["task"] for r in records] == ["locate", "interact"]
            assert all(r["bbox_format"] == box_format and r["coords"] == convention
                       for r in records)
            read = read_instances(path, image_size=(640, 480))
            assert read.layout == f"screenspot-{box_format}"
            locate, interact = read.items
            assert locate.id == f"{instance.id}/locate"
            expected = {"locate": instance.boxes.current.loc,
                        "interact": instance.boxes.current.goal}
            for item in read.items:
                task = item.id.rsplit("/", 1)[1]
                # Whole-pixel boxes in a 640x480 frame survive every convention exactly.
                assert item.boxes.current.loc == pytest.approx(expected[task], abs=0), task


# -- scoring ---------------------------------------------------------------------------------


def test_release_mode_matches_hand_computed_numbers():
    instances = read_instances(DATA / "finestate_bench_web.jsonl").items
    predictions = read_predictions(DATA / "predictions_web.jsonl").items
    records, summary = score(instances, predictions, "release")
    # slider: p0 in bbox and now, p1 on target's far corner (inclusive): all four hit.
    # switch: p0 on bbox's corner, now falls back to bbox; p1 outside bbox: loc stages only.
    # date picker: p0 in bbox, not in now; p1 a string: wrong format, both int stages miss.
    # carousel: p0 null (missing); p1 in target.
    assert [r.verdicts.model_dump() for r in records] == [
        {"sr_loc": True, "sr_int": True, "es_sr_loc": True, "es_sr_int": True},
        {"sr_loc": True, "sr_int": False, "es_sr_loc": True, "es_sr_int": False},
        {"sr_loc": True, "sr_int": False, "es_sr_loc": False, "es_sr_int": False},
        {"sr_loc": False, "sr_int": True, "es_sr_loc": False, "es_sr_int": True},
    ]
    # missing: the date picker's unparseable p1 and the carousel's null p0 (design.md §5).
    assert summary["overall"] == {"sr_loc": 0.75, "sr_int": 0.5, "es_sr_loc": 0.5,
                                  "es_sr_int": 0.5, "n": 4, "missing": 2}
    assert set(summary) >= {"overall", "by_platform", "by_family", "by_component"}
    assert summary["counts"] == {"instances": 4, "predictions": 6, "no_prediction": 0,
                                 "wrong_format": 1, "missing_point": 1,
                                 "unknown_ids": ["images/nope.png"],
                                 "duplicate_ids": ["images/web_a.png"]}
    assert records[2].problems == {"p1": "wrong_format"}
    assert records[3].problems == {"p0": "missing"}
    assert records[0].p1 == (90.0, 30.0)  # reported in pixels of the 200x100 image


def test_stagewise_mode_matches_hand_computed_numbers():
    instances = read_instances(DATA / "finestate_bench_web.jsonl").items
    predictions = read_predictions(DATA / "predictions_web.jsonl").items
    _, summary = score(instances, predictions, "stagewise")
    # As above, but ES-SR@Loc needs p0 in loc AND p1 in goal: only the slider has both.
    assert summary["overall"] == {"sr_loc": 0.75, "sr_int": 0.5, "es_sr_loc": 0.25,
                                  "es_sr_int": 0.5, "n": 4, "missing": 2}
    assert summary["by_family"]["view_manipulation"]["es_sr_int"] == 1.0


def _released_code_rates(details, p0, p1):
    """The released evaluation code's tests, restated: `(accuracy, state_awareness)` of the
    locate answer and `(target_accuracy, state_awareness)` of the interact answer."""
    def inside(point, box):
        if not point or not box or len(box) != 4:
            return False
        return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]

    bbox, now, target = details.get("bbox"), details.get("now_coords"), details.get(
        "target_coords")
    loc = loc_state = hit_int = False
    if p0 and bbox:
        loc = inside(p0, bbox)
        loc_state = inside(p0, now) if now else inside(p0, bbox)
    if p1 and bbox:
        hit_int = inside(p1, target) if target else inside(p1, bbox)
    return loc, hit_int, loc_state, hit_int


unit = st.floats(0, 1, allow_nan=False)
unit_boxes = st.tuples(unit, unit, unit, unit).map(
    lambda b: [min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])])
maybe_box = st.one_of(st.none(), st.just([]), unit_boxes)
# Points often exactly on a box edge, where inclusive vs exclusive would differ.
edge_values = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])


@settings(max_examples=300)
@given(bbox=unit_boxes, now=maybe_box, target=maybe_box,
       p0=st.one_of(st.none(), st.tuples(unit, unit), st.tuples(edge_values, edge_values)),
       p1=st.one_of(st.none(), st.tuples(unit, unit), st.tuples(edge_values, edge_values)),
       snap=st.booleans())
def test_release_mode_is_the_released_code_exactly(bbox, now, target, p0, p1, snap):
    if snap:  # put the boxes on the same coarse grid as the edge points
        bbox = [round(v * 4) / 4 for v in bbox]
    details = {"bbox": bbox, "now_coords": now, "target_coords": target}
    record = {"image": "x.png", "component": {"type": "slider", "instructions": {
        "locate": "l", "interact": "i"}}, "processing_details": details}
    instance = parse_finestate_bench(record, Path("mem.jsonl"), 1, False,
                                     sizes=SizeFinder(Path("/nonexistent"), None, (1000, 800)),
                                     ids=IdAssigner(Path("mem.jsonl")))
    prediction = Prediction(id=instance.id, p0=p0, p1=p1, coords="normalized")
    scored = score_prediction(instance, prediction, "release")
    expected = _released_code_rates(details, p0, p1)
    if p0 is None and p1 is None:
        assert scored.verdicts is None and scored.miss == "missing"
        assert not any(expected)
    else:
        v = scored.verdicts
        assert (v.sr_loc, v.sr_int, v.es_sr_loc, v.es_sr_int) == expected


def test_predictions_keep_bad_points_as_misses_not_file_errors(tmp_path):
    path = write(tmp_path / "p.jsonl",
                 '{"id": "a", "p0": [1, 2], "p1": [3, 4], "coords": "pixel", "model": "m"}',
                 '{"id": "b", "p0": [1], "p1": NaN, "coords": "1000"}',
                 '{"id": "c", "p0": [true, 2], "coords": "normalized"}',
                 '{"id": 7, "p0": null, "p1": "0.5, 0.5", "coords": "pixel"}')
    a, b, c, d = read_predictions(path).items
    assert (a.p0, a.p1, a.model) == ((1.0, 2.0), (3.0, 4.0), "m")
    assert b.p0 is None and b.format_errors == {
        "p0": "expected [x, y], two finite numbers, got [1]",
        "p1": "expected [x, y], two finite numbers, got NaN"}
    assert c.format_errors == {"p0": "expected [x, y], two finite numbers, got [true, 2]"}
    assert d.id == "7" and set(d.format_errors) == {"p1"}
    instance = _hand_instance()
    for prediction, miss in ((b, "wrong_format"), (c, "wrong_format")):
        scored = score_prediction(instance, prediction.model_copy(update={"id": instance.id}))
        assert scored.verdicts is None and scored.miss == miss


def test_a_normalised_point_on_a_pixel_edge_stays_on_it():
    # 13 / 720 * 720 is 12.999999999999998: converting the point back to pixels would
    # push it off the box's top edge. Scoring compares in [0, 1], as the exporter divides.
    boxes = Boxes(loc=(10, 13, 40, 20), core=(10, 13, 40, 20), goal=(20, 13, 30, 20),
                  now=(10, 13, 15, 20))
    instance = _hand_instance().model_copy(update={
        "size": Size(width=1280, height=720), "boxes": BoxSet(current=boxes, target=boxes)})
    assert coords.convert_point((0, 13 / 720), "normalized", "pixel", (1280, 720))[1] < 13
    edge = Prediction(id=instance.id, p0=(15 / 1280, 13 / 720), p1=(30 / 1280, 13 / 720),
                      coords="normalized")
    for mode in ("stagewise", "release"):
        verdicts = score_prediction(instance, edge, mode).verdicts
        assert verdicts == StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True,
                                         es_sr_int=True), mode


def test_unpredicted_instances_are_misses_counted_apart():
    instance = _hand_instance()
    records, summary = score([instance], [])
    assert records[0].miss == "no_prediction" and records[0].verdicts is None
    assert summary["overall"]["missing"] == 1 and summary["overall"]["sr_loc"] == 0.0
    assert summary["counts"]["no_prediction"] == 1


# -- bad files -------------------------------------------------------------------------------

WEB_RECORD = json.loads((DATA / "finestate_bench_web.jsonl").read_text().splitlines()[0])


def _web(**details) -> str:
    record = json.loads(json.dumps(WEB_RECORD))
    record["processing_details"].update(details)
    return json.dumps(record)


@pytest.mark.parametrize("lines, message", [
    ([_web(), "{not json"],
     "2: line: expected one JSON object, got invalid JSON (Expecting property name enclosed "
     "in double quotes at column 2)"),
    (["[1, 2]"], "1: line: expected one JSON object, got a JSON list: [1, 2]"),
    ([_web(bbox=[0.1, 0.2, 0.3])],
     "1: processing_details.bbox: expected [x1, y1, x2, y2]: four numbers in [0, 1] "
     "(normalised) with x1 <= x2 and y1 <= y2, got [0.1, 0.2, 0.3]"),
    ([_web(target_coords=[0.5, 0.1, 0.4, 0.3])],
     "1: processing_details.target_coords: expected [x1, y1, x2, y2]: four numbers in [0, 1] "
     "(normalised) with x1 <= x2 and y1 <= y2, got [0.5, 0.1, 0.4, 0.3]"),
    ([_web(now_coords=[12, 10, 50, 30])],
     "1: processing_details.now_coords: expected [x1, y1, x2, y2]: four numbers in [0, 1] "
     "(normalised) with x1 <= x2 and y1 <= y2, got [12, 10, 50, 30]"),
    ([_web(), '{"image": "images/web_a.png", "component": {"instructions": {}}, '
              '"processing_details": {"bbox": [0, 0, 1, 1]}}'],
     "2: component.instructions.locate: expected a string, got nothing"),
    ([_web(), '{"image": "images/web_a.png", "component": {"type": 3, "instructions": {}}, '
              '"processing_details": {"bbox": [0, 0, 1, 1]}}'],
     "2: component.type: expected a string, got 3"),
    ([_web(), '{"img_filename": "images/ss.png", "bbox": [1, 2, 3, 4], "instruction": "x"}'],
     "2: record: expected a finestate-bench-web record like line 1, got a screenspot-xywh "
     "record"),
    (['{"hello": 1}'],
     '1: record: expected a finestate-env instance (id, boxes, size, ...), a FineState-Bench '
     "record (image, component, processing_details) or a ScreenSpot record (img_filename, "
     'bbox, instruction), got an object with keys ["hello"]'),
    ([_web(), json.dumps({**WEB_RECORD, "id": "x"}), json.dumps({**WEB_RECORD, "id": "x"})],
     '3: id: expected an id used once, got "x", already on line 2'),
    (['{"img_filename": "images/ss.png", "bbox": [1, 2, -3, 4], "instruction": "x"}'],
     "1: bbox: expected [x, y, width, height] with width, height >= 0, four finite numbers "
     "(pixel), got [1, 2, -3, 4]"),
])
def test_bad_lines_name_file_line_field_and_expectation(tmp_path, lines, message):
    copy_images(tmp_path)
    path = write(tmp_path / "bad.jsonl", *lines)
    with pytest.raises(FormatError) as caught:
        read_instances(path)
    assert str(caught.value) == f"{path}:{message}"


def test_project_layout_errors_name_the_nested_field(tmp_path):
    good = _hand_instance().model_dump(mode="json")
    bad_platform = {**good, "platform": "tablet"}
    bad_box = json.loads(json.dumps(good))
    bad_box["boxes"]["current"]["goal"] = [5, 5, 1, 1]
    missing = {k: v for k, v in good.items() if k != "size"}
    cases = [
        (bad_platform, "platform: expected 'web', 'mobile' or 'desktop', got \"tablet\""),
        (bad_box, "boxes.current.goal: expected box [5.0, 5.0, 1.0, 1.0] is not [x1, y1, x2, "
                  "y2] with x1 <= x2 and y1 <= y2, got [5, 5, 1, 1]"),
        (missing, "size: expected a value (the field is required), got nothing"),
        ({**good, "colour": "red"}, 'colour: expected no such field, got "red"'),
    ]
    for record, message in cases:
        path = write(tmp_path / "bad.jsonl", json.dumps(record))
        with pytest.raises(FormatError) as caught:
            read_instances(path)
        assert str(caught.value) == f"{path}:1: {message}"
    duplicate = write(tmp_path / "dup.jsonl", json.dumps(good), json.dumps(good))
    with pytest.raises(FormatError, match=r"dup.jsonl:2: id: expected an id used once, got "
                                          r'"web-slider-hand", already on line 1'):
        read_instances(duplicate)


def test_skip_invalid_keeps_the_good_lines_and_reports_the_bad(tmp_path):
    lines = (DATA / "finestate_bench_web.jsonl").read_text().splitlines()
    path = write(tmp_path / "mixed.jsonl", lines[0], "{oops", _web(bbox=None), lines[3])
    copy_images(path.parent)
    read = read_instances(path, skip_invalid=True)
    assert [i.component for i in read.items] == ["slider", "date_picker"]
    assert read.skipped == [
        f"{path}:2: line: expected one JSON object, got invalid JSON (Expecting property name "
        "enclosed in double quotes at column 2)",
        f"{path}:3: processing_details.bbox: expected [x1, y1, x2, y2]: four numbers in [0, 1] "
        "(normalised) with x1 <= x2 and y1 <= y2, got null"]
    predictions = write(tmp_path / "p.jsonl", '{"id": "a", "p0": [1, 2]}',
                        '{"id": "b", "coords": "pixel"}')
    with pytest.raises(FormatError, match=r"p.jsonl:1: coords: expected one of \['pixel', "
                                          r"'normalized', '1000'\], got nothing"):
        read_predictions(predictions)
    read = read_predictions(predictions, skip_invalid=True)
    assert [p.id for p in read.items] == ["b"] and len(read.skipped) == 1


# -- round trips -----------------------------------------------------------------------------


def _hand_instance() -> Instance:
    boxes = Boxes(loc=(100, 50, 300, 90), core=(110, 60, 290, 80), goal=(200, 60, 209, 80),
                  now=(150, 60, 159, 80))
    return Instance(id="web-slider-hand", platform="web", component="slider",
                    family="numeric_range", gesture="drag",
                    instructions=Instructions(locate="Find it.", interact="Set it to 5."),
                    current_state=2, goal_state=5, image="images/hand.png",
                    size=Size(width=640, height=480), boxes=BoxSet(current=boxes, target=boxes))


def test_project_layout_round_trip_is_identity(tmp_path):
    instance = _hand_instance()
    path = formats.write_instances([instance, instance.model_copy(update={"id": "two"})],
                                   tmp_path / "i.jsonl")
    read = read_instances(path)
    assert read.layout == "finestate-env"
    assert read.items == [instance, instance.model_copy(update={"id": "two"})]


def test_finestate_export_import_scores_the_same(tmp_path):
    instance = _hand_instance()
    desktop = instance.model_copy(update={"id": "desk", "platform": "desktop"})
    points = [(100, 50), (300, 90), (205, 70), (209, 80), (209.5, 80), (99.9, 60), (150, 60),
              (159, 80), (290, 80), (291, 80)]
    predictions = [Prediction(id=i.id, p0=p0, p1=p1, coords="pixel")
                   for i in (instance, desktop) for p0 in points for p1 in points[:3]]
    for fmt_instance in (instance, desktop):
        path = tmp_path / f"{fmt_instance.id}.jsonl"
        formats.export_finestate_bench([fmt_instance], path)
        record = json.loads(path.read_text())
        expected_keys = ({"locate", "loactebbox", "interact", "interactbbox"}
                         if fmt_instance.platform == "desktop"
                         else {"bbox", "now_coords", "target_coords", "core_coords"})
        assert set(record["processing_details"]) == expected_keys
        read = read_instances(path)
        assert read.layout == ("finestate-bench-desktop" if fmt_instance.platform == "desktop"
                               else "finestate-bench-web")
        (back,) = read.items
        assert (back.id, back.platform, back.family, back.gesture, back.size) == (
            fmt_instance.id, fmt_instance.platform, "numeric_range", "drag", fmt_instance.size)
        for mode in ("stagewise", "release"):
            mine = [p for p in predictions if p.id == fmt_instance.id]
            normalised = [p.model_copy(update={
                "p0": coords.convert_point(p.p0, "pixel", "normalized", (640, 480)),
                "p1": coords.convert_point(p.p1, "pixel", "normalized", (640, 480)),
                "coords": "normalized"}) for p in mine]
            original = score([fmt_instance], mine, mode)[1]
            assert score([back], mine, mode)[1] == original
            assert score([back], normalised, mode)[1] == original


# -- the command line, without a browser --------------------------------------------------


def test_import_and_score_commands(tmp_path):
    out = tmp_path / "imported"
    result = finestate("import", str(DATA / "finestate_bench_web.jsonl"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "layout finestate-bench-web, read 4 instances, skipped 0" in result.stdout
    read = read_instances(out / "instances.jsonl")
    assert read.layout == "finestate-env" and len(read.items) == 4
    # Image paths now point from the new folder to the same files.
    # The image is brought into the imported folder (a link, or a copy), named inside it.
    assert read.items[0].image == "images/web_a.png"
    assert (out / "images/web_a.png").read_bytes() == (DATA / "images/web_a.png").read_bytes()
    result = finestate("score", "--instances", str(out / "instances.jsonl"), "--predictions",
                       str(DATA / "predictions_web.jsonl"), "--mode", "release",
                       "--out", str(tmp_path / "scored"))
    assert result.returncode == 0, result.stderr
    assert "ES-SR@Int" in result.stdout and "wrong format 1" in result.stdout
    assert "1 prediction ids name no instance" in result.stderr
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text())
    assert summary["overall"]["sr_loc"] == 0.75 and summary["mode"] == "release"
    lines = (tmp_path / "scored" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[2])["problems"] == {"p1": "wrong_format"}


def test_bad_files_exit_2_and_write_nothing_unless_skipped(tmp_path):
    lines = (DATA / "finestate_bench_web.jsonl").read_text().splitlines()
    bad = write(tmp_path / "bad.jsonl", lines[0], '{"image": 3}', lines[3])
    copy_images(tmp_path)
    out = tmp_path / "out"
    result = finestate("import", str(bad), "--out", str(out))
    assert result.returncode == 2
    assert result.stderr.strip() == f"finestate: {bad}:2: image: expected a string, got 3"
    assert not out.exists()
    result = finestate("score", "--instances", str(bad), "--predictions",
                       str(DATA / "predictions_web.jsonl"), "--out", str(out))
    assert result.returncode == 2 and "bad.jsonl:2: image" in result.stderr
    assert not out.exists()
    result = finestate("import", str(bad), "--out", str(out), "--skip-invalid")
    assert result.returncode == 0, result.stderr
    assert "read 2 instances, skipped 1 invalid lines" in result.stdout
    assert len((out / "instances.jsonl").read_text().splitlines()) == 2
    missing = finestate("score", "--instances", str(tmp_path / "nope.jsonl"),
                        "--predictions", str(bad))
    assert missing.returncode == 2 and "No such file" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_scoring_normalised_records_needs_no_image_size(tmp_path):
    records = DATA / "finestate_bench_desktop.jsonl"  # its images are not there
    volume = "desktop_en/ANumericRange240/volume_03.png"
    font = "desktop_en/CSpecificData200/font_07.png"
    predictions = write(tmp_path / "p.jsonl",
                        json.dumps({"id": volume, "p0": [0.2, 0.22], "p1": [0.305, 0.22],
                                    "coords": "normalized"}),
                        json.dumps({"id": font, "p0": [600, 700], "p1": [600, 825],
                                    "coords": "1000"}))
    # p0 of the volume slider is in locate, not in loactebbox: release's ES-SR@Loc misses.
    for mode, es_sr_loc in (("release", 0.5), ("stagewise", 1.0)):
        out = tmp_path / mode
        result = finestate("score", "--instances", str(records), "--predictions",
                           str(predictions), "--mode", mode, "--out", str(out))
        assert result.returncode == 0, result.stderr
        summary = json.loads((out / "summary.json").read_text())
        assert summary["overall"] == {"sr_loc": 1.0, "sr_int": 1.0, "es_sr_loc": es_sr_loc,
                                      "es_sr_int": 1.0, "n": 2, "missing": 0}
    # Through `import` the same: the instances keep no size, and scoring still needs none.
    result = finestate("import", str(records), "--out", str(tmp_path / "imported"))
    assert result.returncode == 0, result.stderr
    assert "2 instances have no image size" in result.stdout
    imported = tmp_path / "imported" / "instances.jsonl"
    result = finestate("score", "--instances", str(imported), "--predictions", str(predictions),
                       "--mode", "release")
    assert result.returncode == 0, result.stderr
    # One pixel prediction is what asks for a size, and the error names it.
    pixel = write(tmp_path / "pixel.jsonl", predictions.read_text().splitlines()[0],
                  json.dumps({"id": font, "p0": [1100, 700], "p1": [1100, 900],
                              "coords": "pixel"}))
    for instances in (records, imported):
        result = finestate("score", "--instances", str(instances), "--predictions", str(pixel))
        assert result.returncode == 2
        assert result.stderr == (
            f'finestate: {pixel}:2: coords: expected "normalized" or "1000", or the image size '
            f'of instance "{font}", whose boxes are normalised and whose image was not found '
            '(pass --images DIR or --image-size WxH to compare pixels with them), got '
            '"pixel"\n')
        sized = finestate("score", "--instances", str(instances), "--predictions", str(pixel),
                          "--image-size", "1920x1080", "--out", str(tmp_path / "sized"))
        assert sized.returncode == 0, sized.stderr
        scored = [json.loads(line) for line in
                  (tmp_path / "sized" / "results.jsonl").read_text().splitlines()]
        # 1100/1920 = 0.573 is in the font list's x range [0.5, 0.7], 900/1080 in its goal.
        assert scored[1]["verdicts"] == {"sr_loc": True, "sr_int": True, "es_sr_loc": True,
                                         "es_sr_int": True}
        assert scored[1]["p1"] == [1100.0, 900.0] and "coords" not in scored[1]
