"""The desktop's page templates (issue #16): eight Qt application windows, data only.

Each is a main window (title bar, menu bar, toolbar, status bar, for some a dock
panel) or a dialog over one, with its texts, its section headings (drawn without
repeats, so the target's section is unique on the page), the distractor types that
make sense there, its signature image (`hero`) and the drawn blocks for spare room.
`widgets/qt/page.py` draws the blocks with QPainter; `compose` (this package) lays
them out with METRICS, the sizes the Qt renderers draw each type at.
"""

from __future__ import annotations

from finestate_env.components.scenes import GAP, HEADING, Metrics, PageTemplate, web

# Each type's desktop slot (`slots["desktop"]`) is measured from its Qt renderer (every
# type's card, every theme, samples drawn for the slot): the Qt controls differ from the
# web's where Qt decides. Where Qt draws a type larger than its sampler's allowance (a
# seek bar keeps its labels on the track's row, a chart's axis sits beside the plot),
# it is sampled for less than the slot (`pad`); where Qt draws it smaller than the web
# (a time list, a tab page, a dial), its slot is smaller, and the page has room for more.
METRICS = Metrics.of("desktop", heading=HEADING, gap=GAP, narrow_width=372, main_width=616,
                     side_min=360)

PREFERENCES = PageTemplate(
    name="preferences", chrome="dialog", dock="Preferences",
    apps=("Quill", "Scribe", "Inkpad"), icon="file",
    nav=("File", "Edit", "View", "Format", "Tools", "Help"),
    toolbar=("file", "folder", "save", "|", "undo", "redo", "|", "search", "gear"),
    status=("Ln 12, Col 4", "UTF-8", "Spaces: 4", "Saved"),
    titles=("Preferences", "Editor settings", "Options"),
    intros=("Changes apply to every open document.",
            "Settings are stored in your profile and synced.",
            "Press OK to keep the changes, Cancel to discard them."),
    sections=("Indentation", "Fonts", "Spelling", "Autosave", "Line numbers", "Word wrap",
              "Formatting", "Printing", "Cursor", "Minimap", "Whitespace"),
    pool=("slider", "switch", "checkbox", "segmented", "radio_group", "stepper"),
    hero="illustration", fillers=("article", "stats"),
    sidebar=(("gear", "General"), ("file", "Editor"), ("image", "Appearance"),
             ("sliders", "Keyboard"), ("cloud", "Sync"), ("lock", "Privacy"),
             ("grid", "Plugins")),
    texts={"documents": ("Notes.txt", "Draft.md", "Letter.odt", "Untitled 3"),
           "heads": ("Theme: follows the system", "Spell checker ready", "Autosave is on"),
           "lines": ("Files are saved every 5 minutes.", "English (UK) dictionary installed.",
                     "Font: DejaVu Sans Mono 13 px.", "3 plugins need an update."),
           "stats": ("Documents", "Words", "Plugins", "Snippets")})

MEDIA = PageTemplate(
    chrome="window", name="media_player", apps=("Tempo", "Reel", "Sonata"), icon="play",
    nav=("Media", "Playback", "Audio", "Video", "Tools", "Help"),
    toolbar=("prev", "play", "next", "|", "shuffle", "repeat", "|", "folder", "search"),
    status=("00:41 / 03:58", "48 kHz stereo", "Playlist: 14 tracks", "Buffering done"),
    titles=("Now playing", "Mountain rivers", "Evening jazz", "Night sky timelapse"),
    intros=("Album: Quiet Places · 2024", "1080p · H.264 · 24 fps", "Track 3 of 14"),
    sections=("Playback", "Audio", "Equalizer", "Subtitles", "Video", "Effects", "Speed",
              "Visualizer", "Output", "Sync"),
    pool=("slider", "knob", "switch", "segmented", "checkbox", "rating"),
    hero="video", fillers=("playlist", "thumbs"),
    sidebar=(("music", "Library"), ("play", "Videos"), ("star", "Favourites"),
             ("clock", "Recent"), ("cloud", "Streams"), ("folder", "Folders")),
    dock="Library",
    texts={"names": ("River delta", "Alpine lakes", "Forest sounds", "Waterfalls",
                     "Canyon drive", "Blue hour", "Harbour lights"),
           "videos": ("Intro", "Chapter 1", "Chapter 2", "Credits", "Bonus")})

SHEET = PageTemplate(
    chrome="window", name="spreadsheet", apps=("Gridly", "Cells", "Ledger"), icon="table",
    nav=("File", "Edit", "View", "Insert", "Format", "Data", "Help"),
    toolbar=("file", "save", "|", "undo", "redo", "|", "bold", "italic", "|", "chart", "sum"),
    status=("Sum: 48,210", "Average: 4,018", "Sheet 1 of 3", "Autosaved"),
    titles=("Q3 budget.ods", "Inventory.ods", "Sales by region.ods"),
    intros=("Edited by Grace Kim 2 minutes ago.", "1,204 rows · 12 columns.",
            "Shared with 4 people."),
    sections=("Format", "Filter", "Chart", "Columns", "Sort", "Validation", "Print", "Freeze",
              "Number format", "Conditional"),
    pool=("segmented", "switch", "checkbox", "radio_group", "stepper", "slider"),
    hero="table", fillers=("table", "chart"),
    texts={**web.SHEET.texts, "series": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul")})

IMAGE = PageTemplate(
    chrome="window", name="image_editor", apps=("Darkroom", "Pixelate", "Lumière"), icon="image",
    nav=("File", "Edit", "Image", "Layer", "Filters", "Window", "Help"),
    toolbar=("move", "crop", "brush", "eraser", "|", "zoom", "|", "undo", "redo"),
    status=("4032 × 3024 px", "RGB 8-bit", "Zoom 33%", "Layer 2 of 4"),
    titles=("IMG_2041.jpg", "Harbour at dusk.png", "Portrait.tif"),
    intros=("Non-destructive: the original is kept.", "Shot on 35 mm · f/2.8 · 1/250 s",
            "Adjustments apply to the selected layer."),
    sections=("Light", "Colour", "Detail", "Effects", "Crop", "Vignette", "Tone", "Grain",
              "Brush", "Lens"),
    pool=("slider", "knob", "segmented", "switch", "color_picker", "checkbox"),
    hero="photo", fillers=("photo", "thumbs"),
    sidebar=(("image", "Background"), ("brush", "Retouch"), ("sliders", "Curves"),
             ("grid", "Texture"), ("star", "Highlights")),
    dock="Layers",
    texts={"videos": ("Original", "Vivid", "Mono", "Warm", "Fade")})

FILES = PageTemplate(
    chrome="window", name="file_browser", apps=("Files", "Nautilus", "Dolphin"), icon="folder",
    nav=("File", "Edit", "View", "Go", "Bookmarks", "Help"),
    toolbar=("back", "forward", "up", "|", "folder", "file", "|", "grid", "list", "search"),
    status=("8 items, 2 selected", "14.2 GB free", "Sorted by name", "Hidden files shown"),
    titles=("Documents", "Projects", "Downloads", "Pictures"),
    intros=("/home/ana/Documents", "/home/ana/Projects/finestate", "/home/ana/Downloads"),
    sections=("Sharing", "Sync", "View", "Sort", "Details", "Versions", "Storage", "Offline",
              "Filters", "Permissions"),
    pool=("switch", "checkbox", "segmented", "radio_group", "slider", "stepper"),
    hero="files", fillers=("files", "stats"),
    sidebar=(("clock", "Recent"), ("star", "Starred"), ("folder", "Home"),
             ("file", "Documents"), ("image", "Pictures"), ("cloud", "Network"),
             ("trash", "Trash")),
    dock="Places",
    texts=web.FILES.texts)

EMAIL = PageTemplate(
    chrome="window", name="email_client", apps=("Postbox", "Mailbird", "Inkwell"), icon="mail",
    nav=("File", "Edit", "View", "Message", "Tools", "Help"),
    toolbar=("inbox", "send", "|", "reply", "forward", "|", "trash", "tag", "search"),
    status=("3 unread", "Online", "Last sync 09:41", "Offline mode off"),
    titles=("Inbox", "Account settings", "Message filters"),
    intros=("ana@example.com · 1,284 messages", "Messages older than 30 days are archived.",
            "Filters run on every new message."),
    sections=("Reading", "Signature", "Filters", "Vacation reply", "Threads", "Notifications",
              "Layout", "Spam", "Forwarding", "Priority"),
    pool=("switch", "checkbox", "radio_group", "segmented", "slider", "rating"),
    hero="mails", fillers=("mails", "article"),
    sidebar=web.EMAIL.sidebar, dock="Folders",  # the web mail's folders, people, subjects
    texts={**web.EMAIL.texts,
           "lines": ("Replies quote the original message.", "Images load on request.",
                     "Your signature is added to new messages.")})

IDE = PageTemplate(
    chrome="window", name="ide", apps=("Forge", "Codebench", "Vertex IDE"), icon="code",
    nav=("File", "Edit", "View", "Navigate", "Run", "Git", "Help"),
    toolbar=("file", "save", "|", "play", "bug", "stop", "|", "search", "gear"),
    status=("main ✓", "Python 3.11", "Ln 42, Col 17", "4 problems"),
    titles=("stage.py", "Run configuration", "Debugger settings"),
    intros=("finestate-env · branch main · 3 files changed", "Tests pass: 1,204 of 1,204.",
            "Breakpoints pause every thread."),
    sections=("Editor", "Linting", "Formatting", "Debugger", "Terminal", "Version control",
              "Build", "Tests", "Inspections", "Completion"),
    pool=("switch", "checkbox", "segmented", "radio_group", "stepper", "slider"),
    hero="code", fillers=("code", "article"),
    sidebar=(("folder", "finestate_env"), ("folder", "widgets"), ("file", "app.py"),
             ("file", "kit.py"), ("file", "page.py"), ("folder", "tests"),
             ("file", "README.md")),
    dock="Project",
    texts={"code": ("def render(self, spec):", "    control = self.build(spec)",
                    "    return control.state()", "class Stage(QWidget):",
                    "    \"\"\"The one top-level window.\"\"\"", "for widget in children:",
                    "    widget.update()", "import json", "if __name__ == \"__main__\":",
                    "    raise SystemExit(main())"),
           "lines": ("Ruff: 4 warnings in 2 files.", "Formatter: black, line length 100.",
                     "Type checker: strict mode.")})

MONITOR = PageTemplate(
    chrome="window", name="system_monitor", apps=("Gauge", "Sysview", "Overseer"), icon="chart",
    nav=("Monitor", "View", "Processes", "Settings", "Help"),
    toolbar=("refresh", "stop", "|", "chart", "list", "|", "search", "gear"),
    status=("CPU 23%", "Memory 5.1 of 16 GB", "Uptime 3 d 4 h", "214 processes"),
    titles=("Resources", "Processes", "Power and fans"),
    intros=("Updated every second.", "8 cores · 16 threads · 3.6 GHz",
            "History of the last 60 seconds."),
    sections=("Refresh", "Notifications", "Graphs", "Power", "Fans", "Columns", "Priority",
              "Limits", "Interfaces", "Storage"),
    pool=("slider", "switch", "segmented", "checkbox", "radio_group", "stepper", "knob"),
    hero="graph", fillers=("processes", "stats"),
    sidebar=(("chart", "Resources"), ("list", "Processes"), ("cloud", "Network"),
             ("grid", "Disks"), ("bell", "Alerts")),
    dock="Views",
    texts={"names": ("python3", "Xvfb", "chromium", "postgres", "nginx", "systemd", "sshd",
                     "dockerd", "node", "redis-server"),
           "stats": ("CPU", "Memory", "Swap", "Disk", "Network")})

TEMPLATES = (PREFERENCES, MEDIA, SHEET, IMAGE, FILES, EMAIL, IDE, MONITOR)
