"""The web's page templates (issue #16): nine app pages, data only.

Each names its chrome, its texts, its section headings (drawn without repeats, so
the target's section is unique on the page), the distractor types that make
sense there, its signature image (`hero`) and the drawn blocks for spare room.
`widgets/web/scene.js` draws the blocks; `compose` (this package) lays them out.
"""

from __future__ import annotations

from finestate_env.components.scenes import PageTemplate

_PEOPLE = ("Ana Ruiz", "Ben Okafor", "Chloé Martin", "Dev Patel", "Emma Larsen", "Farid Haddad",
           "Grace Kim", "Hugo Silva", "Ines Novak", "Jonas Berg")

SETTINGS = PageTemplate(
    name="settings", apps=("Northwind", "Lumen", "Orbit"), icon="gear",
    nav=("Account", "Devices", "Billing", "Help"),
    titles=("Settings", "System settings", "Preferences"),
    intros=("Changes are saved as soon as you make them.",
            "Manage how this device looks, sounds and connects.",
            "These settings apply to every device signed in to your account."),
    sections=("Sound", "Display", "Network", "Privacy", "Notifications", "Power", "Accessibility",
              "Keyboard", "Storage", "Updates", "Language", "Security"),
    pool=("slider", "switch", "checkbox", "segmented", "radio_group", "stepper"),
    hero="illustration", fillers=("article", "stats"),
    sidebar=(("user", "Profile"), ("gear", "General"), ("sliders", "Display"),
             ("bell", "Notifications"), ("lock", "Privacy"), ("cloud", "Backup"),
             ("shield", "Security")),
    texts={"heads": ("Your device is up to date", "Storage almost full", "Backup complete"),
           "lines": ("Last checked today at 09:41.", "12.4 GB of 64 GB used.",
                     "Automatic backups run every night.", "Signed in as ana@example.com."),
           "stats": ("Battery", "Storage", "Uptime", "Devices")})

VIDEO = PageTemplate(
    name="video", apps=("Streamly", "ViewTube", "Cinema+"), icon="play",
    nav=("Home", "Trending", "Subscriptions", "Library"),
    titles=("Mountain rivers in 4K", "Cooking pasta from scratch", "The history of jazz",
            "Night sky timelapse"),
    intros=("1.2M views · 3 weeks ago", "48K views · 2 days ago", "310K views · 1 year ago"),
    sections=("Playback", "Audio", "Subtitles", "Quality", "Up next", "Comments", "Captions",
              "Equalizer", "Downloads", "Chapters"),
    pool=("slider", "switch", "segmented", "knob", "rating", "checkbox", "radio_group"),
    hero="video", fillers=("thumbs", "comments"),
    texts={"names": _PEOPLE,
           "comments": ("Great video, thanks!", "The part at 3:10 is amazing.",
                        "Which camera did you use?", "Watched it twice already.",
                        "Subscribed, more of this please."),
           "videos": ("River delta aerials", "Alpine lakes", "Forest sounds 1 hour",
                      "Waterfalls of Iceland", "Canyon drive")})

CHECKOUT = PageTemplate(
    name="checkout", apps=("Shopline", "Cartwise", "Basket"), icon="cart",
    nav=("Cart", "Shipping", "Payment", "Review"),
    titles=("Checkout", "Book your stay", "Complete your order"),
    intros=("Step 2 of 4 · Your details are encrypted.",
            "Free cancellation until 48 hours before arrival.",
            "Orders placed before 2 pm ship today."),
    sections=("Delivery", "Guests", "Dates", "Payment", "Extras", "Contact", "Billing address",
              "Gift options", "Insurance", "Room", "Seats"),
    pool=("stepper", "radio_group", "checkbox", "switch", "segmented", "slider"),
    hero="summary", fillers=("summary", "article"),
    texts={"items": ("Linen shirt", "Canvas tote", "Desk lamp", "Ceramic mug", "Wool scarf",
                     "Double room", "Breakfast", "Late check-out"),
           "lines": ("Pay securely with card or bank transfer.",
                     "We will email your receipt and tracking link.",
                     "Questions? Our team answers within an hour.")})

DASHBOARD = PageTemplate(
    name="dashboard", apps=("Metricly", "Pulse", "Insight"), icon="chart",
    nav=("Overview", "Reports", "Funnels", "Alerts"),
    titles=("Analytics", "Sales overview", "Traffic report"),
    intros=("Data refreshed 5 minutes ago.", "Last 30 days compared with the period before.",
            "All regions, all channels."),
    sections=("Filters", "Forecast", "Targets", "Segments", "Alerts", "Thresholds", "Display",
              "Date range", "Channels", "Export"),
    pool=("slider", "segmented", "switch", "checkbox", "radio_group", "stepper", "tabs"),
    hero="chart", fillers=("stats", "chart"),
    sidebar=(("grid", "Overview"), ("chart", "Reports"), ("user", "Audience"),
             ("cart", "Revenue"), ("bell", "Alerts"), ("gear", "Settings")),
    texts={"stats": ("Visitors", "Revenue", "Orders", "Bounce rate", "Conversion", "Sessions"),
           "series": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")})

FILES = PageTemplate(
    name="files", apps=("Driveway", "Boxfile", "Cloudy"), icon="folder",
    nav=("My files", "Shared", "Recent", "Trash"),
    titles=("My files", "Projects", "Shared with me"),
    intros=("14.2 GB of 100 GB used.", "Drag files here to upload them.",
            "Files shared with you appear here."),
    sections=("Sharing", "Sync", "View", "Sort", "Upload", "Versions", "Storage", "Offline",
              "Filters", "Details"),
    pool=("switch", "checkbox", "segmented", "radio_group", "slider", "stepper"),
    hero="files", fillers=("files", "stats"),
    sidebar=(("folder", "My files"), ("user", "Shared"), ("clock", "Recent"),
             ("star", "Starred"), ("cloud", "Backups"), ("trash", "Trash")),
    texts={"files": ("Budget 2026.xlsx", "Pitch deck.pdf", "Team photo.jpg", "Notes.txt",
                     "Invoices", "Design assets", "Holiday.mp4", "Contract v3.docx"),
           "stats": ("Documents", "Images", "Videos", "Other")})

EMAIL = PageTemplate(
    name="email", apps=("Postbox", "Mailbird", "Inkwell"), icon="mail",
    nav=("Mail", "Calendar", "Contacts", "Tasks"),
    titles=("Inbox", "Mail settings", "Compose"),
    intros=("You have 3 unread messages.", "Inbox zero is one click away.",
            "Messages older than 30 days are archived."),
    sections=("Reading", "Signature", "Filters", "Vacation reply", "Labels", "Notifications",
              "Layout", "Spam", "Forwarding", "Priority"),
    pool=("switch", "checkbox", "radio_group", "segmented", "slider", "rating"),
    hero="mails", fillers=("mails", "article"),
    sidebar=(("inbox", "Inbox"), ("star", "Starred"), ("send", "Sent"), ("file", "Drafts"),
             ("tag", "Labels"), ("trash", "Trash")),
    texts={"names": _PEOPLE,
           "subjects": ("Quarterly report", "Lunch on Friday?", "Your invoice is ready",
                        "Re: design review", "Flight confirmation", "Weekly digest",
                        "Welcome aboard", "Meeting notes")})

SHEET = PageTemplate(
    name="spreadsheet", apps=("Gridly", "Cells", "Ledger"), icon="table",
    nav=("File", "Edit", "View", "Data"),
    titles=("Q3 budget", "Inventory", "Sales by region"),
    intros=("Edited by Grace Kim 2 minutes ago.", "Autosaved · 1,204 rows.",
            "Shared with 4 people."),
    sections=("Format", "Filter", "Chart", "Columns", "Sort", "Validation", "Print",
              "Freeze", "Number format", "Conditional"),
    pool=("segmented", "switch", "checkbox", "radio_group", "stepper", "slider"),
    hero="table", fillers=("table", "chart"),
    texts={"columns": ("Region", "Q1", "Q2", "Q3", "Total", "Owner"),
           "rows": ("North", "South", "East", "West", "Central", "Online", "Retail")})

PRODUCT = PageTemplate(
    name="product", apps=("Shopline", "Marketly", "Goodsy"), icon="tag",
    nav=("New", "Women", "Men", "Home", "Sale"),
    titles=("Trail running shoe", "Noise-cancelling headphones", "Espresso machine",
            "Wool overcoat"),
    intros=("€129.00 · Free returns within 30 days.", "★★★★☆ 4.3 (812 reviews)",
            "In stock · ships in 1-2 days."),
    sections=("Size", "Colour", "Quantity", "Reviews", "Delivery", "Options", "Warranty",
              "Gift wrap", "Fit", "Material"),
    pool=("segmented", "radio_group", "stepper", "rating", "checkbox", "color_picker", "slider"),
    hero="product", fillers=("thumbs", "article"),
    texts={"lines": ("Breathable mesh upper and a cushioned sole.",
                     "Designed in Copenhagen, made to last.",
                     "Care: machine wash cold, dry flat."),
           "videos": ("Front", "Side", "Back", "Detail", "Box")})

PHOTO = PageTemplate(
    name="photo_editor", apps=("Darkroom", "Pixelate", "Lumière"), icon="image",
    nav=("Edit", "Filters", "Crop", "Export"),
    titles=("Edit photo", "IMG_2041.jpg", "Harbour at dusk"),
    intros=("4032 × 3024 · 3.1 MB", "Non-destructive: the original is kept.",
            "Shot on 35 mm · f/2.8 · 1/250 s"),
    sections=("Light", "Colour", "Detail", "Effects", "Crop", "Vignette", "Curves", "Grain",
              "Export", "Lens"),
    pool=("slider", "knob", "segmented", "switch", "color_picker", "checkbox"),
    hero="photo", fillers=("photo", "thumbs"),
    texts={"videos": ("Original", "Vivid", "Mono", "Warm", "Fade")})

TEMPLATES = (SETTINGS, VIDEO, CHECKOUT, DASHBOARD, FILES, EMAIL, SHEET, PRODUCT, PHOTO)
