"""A phone's page templates and how a phone's page is laid out (issue #16, mobile).

A phone page is one column on the 360x800 CSS px screen, never scrolled: a status
bar (time, signal, Wi-Fi, battery), an app bar, and at the foot a bottom
navigation bar; between them the content, top to bottom:

- what leads it, drawn from what fits: the template's signature image, a
  section of distractors, or nothing;
- the target's section: its heading, the target's slot as wide as the screen,
  and same-type siblings with other labels where the type's instructions always
  name the label (Volume, then Bass and Treble);
- distractor sections (`_fill_column`, shared with the web, with PHONE's
  measures), then compact settings rows (a lone switch, or two side by side as
  quick-settings tiles) while the page has fewer than MIN_DISTRACTORS, or by
  chance where room is left, and a drawn filler in what remains.

The target's slot is its type's tallest phone control (its `slots["mobile"]`, at
most TALL) cut to leave room for three compact rows; the type's sampler is given the slot as its
viewport and draws a control that fits (a tree shows fewer rows, a time picker
turns landscape). Every control is sampled with `touch`: finger-sized targets.
`widgets/web/scene.js` draws the blocks, as it does the web's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from finestate_env.components.base import Sample, choose
from finestate_env.components.scenes import (
    MAX_DISTRACTORS,
    MIN_DISTRACTORS,
    Metrics,
    PageTemplate,
    _components,
    _distractor,
    _fill_column,
    _filler,
    _Layout,
    _NoRoom,
    label_of,
    page_viewport_problem,
)
from finestate_env.core.schema import SceneSpec

STATUS_BAR = 24
APP_BAR = 48
BOTTOM_NAV = 56
INSET = 8  # drawn blocks keep this far from the screen's sides (controls: their slot margin)
# A compact settings row: a lone switch without its card's title (switch.py), as a
# full-width row or, half as wide, a quick-settings tile; its slot height.
COMPACT = 90
COMPACT_OWED = 2  # rows that hold the three distractors a page needs at least: a pair, one

# A target's slot height (each type's `slots["mobile"].target`, CSS px, the 8 px margin
# included): its tallest control on a 360x800 phone with touch-sized targets, at most
# TALL (which leaves room for a section of distractors beside the compact rows), and for
# the cards whose sampler keeps the rows that fit (switch, checkbox, radio_group,
# stepper, rating, seek_bar's poster) a little less, which leaves less blank under a
# short card; the slot may be cut further to leave room for COMPACT_OWED rows.
# date_picker and color_picker do not shrink (six weeks and a palette of finger-sized
# cells): they keep their own height, which fits. Measured by rendering 30 seeds of
# each; stage.js checks the fit on every page. A distractor's slot (`distractor`) is its
# sampler's viewport; the switch's is a titled card of two rows, its compact form COMPACT.
TALL = 360


@dataclass(frozen=True)
class _Phone(Metrics):
    def reserve(self, owed: int, pool: list[str]) -> int:
        # What is owed goes in compact rows under the last heading, two to a row, after
        # the gap that follows a section.
        return -(-owed // 2) * COMPACT + self.gap


PHONE = _Phone.of("mobile", heading=24, gap=4, lenient=False)


def compose(rng: np.random.Generator, template: PageTemplate, component: str,
            viewport: tuple[int, int], touch: bool = True) -> tuple[Sample, SceneSpec]:
    """The target's sample and the phone page around it (the module docstring says how)."""
    problem = page_viewport_problem(viewport, "mobile")
    if problem:
        raise ValueError(problem)
    width, height = viewport
    words = {key: list(pool) for key, pool in sorted(template.texts.items())}
    top, bottom = STATUS_BAR + APP_BAR, height - BOTTOM_NAV
    minutes = int(rng.integers(6 * 60, 23 * 60))
    blocks: list[dict[str, Any]] = [
        {"kind": "statusbar", "rect": [0, 0, width, STATUS_BAR],
         "time": f"{minutes // 60}:{minutes % 60:02d}", "battery": int(rng.integers(15, 101)),
         "signal": int(rng.integers(2, 5))},
        {"kind": "phone_appbar", "rect": [0, STATUS_BAR, width, APP_BAR],
         "title": choose(rng, template.titles), "icon": template.icon,
         "actions": list(template.nav)},
        {"kind": "bottomnav", "rect": [0, bottom, width, BOTTOM_NAV],
         "items": [list(item) for item in template.bottom_nav],
         "active": int(rng.integers(len(template.bottom_nav)))},
    ]
    sections = [template.sections[int(i)] for i in rng.permutation(len(template.sections))]
    section = sections.pop(0)
    heading = PHONE.heading
    slot_h = min(PHONE.target_heights[component],
                 bottom - top - heading - COMPACT_OWED * COMPACT)
    sample = _components()[component].sample(rng, (width, slot_h), touch=touch)
    label = label_of(component, sample.params)
    layout = _Layout(blocks=blocks, controls=[], labels={label}, forbidden=label,
                     metrics=PHONE)
    owed_room = COMPACT_OWED * COMPACT  # kept free below the target until it is spent

    # What leads the page, above the target's section: drawn from what fits.
    y = top
    spare = bottom - top - heading - slot_h - owed_room
    hero_h = int(rng.integers(96, 161))
    leads = ["none"]
    if spare >= hero_h + PHONE.gap:
        leads.append("hero")
    if spare >= heading + min(PHONE.heights[c] for c in template.pool) + PHONE.gap:
        leads.append("section")
    lead = choose(rng, leads)
    if lead == "hero":
        blocks.append({"kind": template.hero, "rect": [INSET, y + 4, width - 2 * INSET, hero_h],
                       "seed": int(rng.integers(1 << 30)), "words": words,
                       "text": choose(rng, template.intros)})
        y += 4 + hero_h + PHONE.gap
    elif lead == "section":
        y = _fill_column(rng, template, 0, y, width, y + spare, sections[:1], layout, touch)
        sections = sections[1:]

    # The target's section: its heading, its slot, same-type siblings under it.
    blocks.append({"kind": "heading", "rect": [0, y, width, heading], "text": section})
    slot = (0, y + heading, width, slot_h)
    y = slot[1] + slot_h
    if _components()[component].siblings and component in PHONE.heights:
        for _ in range(int(rng.integers(0, 3))):
            h = PHONE.heights[component]
            if y + h > bottom - owed_room or not _distractor(
                    rng, component, (0, y, width, h), section, layout, touch):
                break
            y += h
    last = section  # the heading compact rows sit under
    placed = len(layout.controls)
    y = _fill_column(rng, template, 0, y, width, bottom, sections, layout, touch)
    if len(layout.controls) > placed:
        last = next(b["text"] for b in reversed(blocks) if b["kind"] == "heading")
    y = _compact_rows(rng, y, width, bottom, last, layout, touch)
    _filler(rng, template, INSET, y + 4, width - 2 * INSET, bottom - 4, blocks)
    if len(layout.controls) < MIN_DISTRACTORS:
        raise _NoRoom(f"phone page {template.name!r} found room for only "
                      f"{len(layout.controls)} distractors beside a {component}")
    return sample, SceneSpec(template=template.name, label=label, section=section,
                             rect=slot, blocks=layout.blocks, distractors=layout.controls)


def _compact_rows(rng: np.random.Generator, y: int, width: int, bottom: int, section: str,
                  layout: _Layout, touch: bool) -> int:
    """Compact settings rows under `section` from y: as many as the page still owes, then
    one more now and then where it fits. Returns where they end."""
    while y + COMPACT <= bottom and len(layout.controls) < MAX_DISTRACTORS:
        owed = MIN_DISTRACTORS - len(layout.controls)
        if owed <= 0 and not rng.integers(3):
            break
        if owed <= 0 and y + COMPACT + 90 > bottom and rng.integers(2):
            break  # room for a drawn filler rather than one more row
        tiles = 2 if (owed >= 2 or rng.integers(2)) else 1
        if len(layout.controls) + tiles > MAX_DISTRACTORS:
            tiles = 1
        tile_w = width // tiles
        for i in range(tiles):
            if not _distractor(rng, "switch", (i * tile_w, y, tile_w, COMPACT), section, layout,
                               touch):
                return y if i == 0 else y + COMPACT
        y += COMPACT
        if owed <= 0:
            break
    return y


_PEOPLE = ("Ana Ruiz", "Ben Okafor", "Chloé Martin", "Dev Patel", "Emma Larsen", "Farid Haddad",
           "Grace Kim", "Hugo Silva", "Ines Novak", "Jonas Berg")

SETTINGS = PageTemplate(
    name="phone_settings", apps=("Settings",), icon="back", nav=("search",),
    titles=("Settings", "Sound & vibration", "Display", "Connections", "Notifications"),
    intros=("Ana Ruiz · Google account", "Signed in as ana@example.com",
            "Your phone is up to date"),
    sections=("Sound", "Display", "Network", "Privacy", "Notifications", "Battery",
              "Accessibility", "Security", "Storage", "Location"),
    pool=("slider", "switch", "checkbox", "segmented", "radio_group", "stepper"),
    hero="profile", fillers=("rows",),
    bottom_nav=(("home", "Home"), ("search", "Search"), ("gear", "Settings")),
    texts={"rows": ("About phone", "Software update", "Apps", "Wallpaper", "Digital wellbeing",
                    "Google", "System", "Tips & support"),
           "lines": ("Last backup today at 03:12.", "48.2 GB of 128 GB used.",
                     "Security update: 1 November 2026.")})

MUSIC = PageTemplate(
    name="music_player", apps=("Tunely",), icon="down", nav=("heart", "more"),
    titles=("Now playing", "Daily Mix", "Night Drive"),
    intros=("Midnight City · Neon Harbour", "Blue Hour · The Lanterns", "Slow Tide · Mira Sol",
            "Paper Planes · Northbound"),
    sections=("Playback", "Sound", "Equalizer", "Queue", "Sleep timer", "Lyrics", "Output",
              "Crossfade", "Downloads"),
    pool=("slider", "seek_bar", "knob", "switch", "segmented", "rating", "carousel"),
    hero="album", fillers=("songs",),
    bottom_nav=(("home", "Home"), ("search", "Search"), ("library", "Library")),
    texts={"songs": ("Midnight City", "Blue Hour", "Slow Tide", "Paper Planes", "Golden Hour",
                     "Afterglow", "Lighthouse", "Static Love"),
           "artists": ("Neon Harbour", "The Lanterns", "Mira Sol", "Northbound", "Kite Club")})

ALARM = PageTemplate(
    name="alarm_clock", apps=("Clock",), icon="menu", nav=("plus", "more"),
    titles=("Alarm", "Alarms", "Edit alarm"),
    intros=("Next alarm in 7 hours 12 minutes", "Rings tomorrow at 06:30",
            "Bedtime reminder at 22:45"),
    sections=("Alarm", "Snooze", "Sound", "Repeat", "Bedtime", "Vibration", "Wake-up",
              "Gradual volume", "Label"),
    pool=("switch", "slider", "stepper", "segmented", "checkbox", "radio_group"),
    hero="clock", fillers=("alarms",),
    bottom_nav=(("alarm", "Alarm"), ("clock", "Clock"), ("timer", "Timer"),
                ("stopwatch", "Stopwatch")),
    texts={"alarms": ("Work", "Gym", "Medicine", "Weekend", "Pick up kids", "Nap"),
           "days": ("Mon–Fri", "Every day", "Sat, Sun", "Tomorrow", "Wed")})

SHOPPING = PageTemplate(
    name="shopping_app", apps=("Shopline",), icon="back", nav=("heart", "cart"),
    titles=("Trail running shoe", "Wireless earbuds", "Linen shirt", "Ceramic mug set"),
    intros=("€129.00 · Free returns", "★★★★☆ 4.4 · 812 reviews", "In stock · ships tomorrow"),
    sections=("Size", "Colour", "Quantity", "Reviews", "Delivery", "Options", "Gift wrap",
              "Fit", "Warranty"),
    pool=("segmented", "stepper", "radio_group", "rating", "checkbox", "switch", "carousel"),
    hero="product", fillers=("basket",),
    bottom_nav=(("home", "Home"), ("search", "Search"), ("cart", "Cart"), ("user", "Account")),
    texts={"items": ("Trail shoe", "Sport socks", "Insoles", "Gift card", "Shoe care kit"),
           "lines": ("Breathable mesh upper and a cushioned sole.",
                     "Order by 2 pm for delivery tomorrow.",
                     "Free returns within 30 days.")})

MAP = PageTemplate(
    name="map_screen", apps=("Wayfind",), icon="menu", nav=("search", "user"),
    titles=("Explore", "Directions", "Nearby"),
    intros=("Your location · Harbour district", "12 min (3.4 km) · light traffic",
            "Open now · 4.6 ★ · €€"),
    sections=("Route", "Map layers", "Avoid", "Travel mode", "Places", "Departure",
              "Traffic", "Navigation voice"),
    pool=("segmented", "switch", "checkbox", "slider", "radio_group", "rating"),
    hero="map", fillers=("places",),
    bottom_nav=(("pin", "Explore"), ("route", "Go"), ("star", "Saved"), ("bell", "Updates")),
    texts={"places": ("Harbour Café", "City Museum", "Central Station", "Riverside Park",
                      "Old Market", "Bike rental"),
           "kinds": ("Café", "Museum", "Station", "Park", "Market", "Rental")})

MESSAGING = PageTemplate(
    name="messaging_app", apps=("Chatter",), icon="back", nav=("phone", "more"),
    titles=("Grace Kim", "Family", "Hiking club", "Ben Okafor"),
    intros=("online", "last seen today at 09:12", "5 members · 2 online"),
    sections=("Notifications", "Media", "Chat", "Privacy", "Wallpaper", "Disappearing",
              "Sounds", "Reactions"),
    pool=("switch", "checkbox", "segmented", "radio_group", "slider", "stepper"),
    hero="chat", fillers=("chats", "chat"),
    bottom_nav=(("chat", "Chats"), ("phone", "Calls"), ("user", "Contacts"),
                ("gear", "Settings")),
    texts={"names": _PEOPLE,
           "messages": ("See you at 7?", "Sent the photos", "On my way!",
                        "Can you call me later?", "Happy birthday!", "Thanks, that helps.",
                        "Lunch tomorrow?", "Running 5 min late")})

FITNESS = PageTemplate(
    name="fitness_tracker", apps=("Stride",), icon="menu", nav=("bell",),
    titles=("Today", "Activity", "Workout"),
    intros=("7,842 steps · 5.6 km", "Goal reached 4 days in a row", "Resting heart rate 58"),
    sections=("Goals", "Workout", "Heart rate", "Sleep", "Reminders", "Units", "Water",
              "Training zone", "Steps"),
    pool=("slider", "stepper", "switch", "segmented", "knob", "rating", "radio_group"),
    hero="rings", fillers=("workouts",),
    bottom_nav=(("home", "Today"), ("chart", "Trends"), ("run", "Workout"),
                ("user", "Profile")),
    texts={"workouts": ("Morning run", "Evening walk", "Cycling", "Trail run", "Swim",
                        "Hike"),
           "days": ("Today", "Yesterday", "Monday", "Sunday", "Saturday")})

BANKING = PageTemplate(
    name="banking_wallet", apps=("Coinly",), icon="menu", nav=("bell", "user"),
    titles=("Wallet", "Accounts", "Cards"),
    intros=("Main account · €4,218.40", "Savings · €12,904.00", "Visa •••• 4821"),
    sections=("Card", "Limits", "Payments", "Security", "Savings", "Notifications",
              "Round-ups", "Travel"),
    pool=("switch", "slider", "stepper", "segmented", "checkbox", "radio_group"),
    hero="card", fillers=("transactions",),
    bottom_nav=(("home", "Home"), ("card", "Cards"), ("send", "Pay"), ("chart", "Insights")),
    texts={"merchants": ("Coffee Corner", "Metro ticket", "Grocery Mart", "Bookshop",
                         "Streaming", "Pharmacy", "Salary", "Rent"),
           "kinds": ("Food", "Transport", "Shopping", "Health", "Income", "Bills")})

WEATHER = PageTemplate(
    name="weather", apps=("Skycast",), icon="menu", nav=("plus", "more"),
    titles=("Lisbon", "Oslo", "Kyoto", "Denver"),
    intros=("Partly cloudy · feels like 17°", "Light rain · wind 14 km/h",
            "Sunny · UV index 6"),
    sections=("Units", "Alerts", "Widgets", "Forecast", "Locations", "Radar", "Air quality",
              "Display"),
    pool=("segmented", "switch", "checkbox", "slider", "radio_group", "carousel"),
    hero="weather", fillers=("forecast",),
    bottom_nav=(("sun", "Today"), ("calendar", "10 days"), ("pin", "Radar"),
                ("gear", "Settings")),
    texts={"days": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
           "skies": ("sun", "cloud", "rain", "sun", "cloud")})

TEMPLATES = (SETTINGS, MUSIC, ALARM, SHOPPING, MAP, MESSAGING, FITNESS, BANKING, WEATHER)
