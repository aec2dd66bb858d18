"use strict";
// Page scenes (widgets/scenes): the painters of the blocks a page template is made
// of. Every block is drawn by us (HTML, CSS and inline SVG, installed fonts only),
// from the block's own words and seed, so the same block gives the same pixels.
// Blocks are decoration: nothing here takes input or holds state; the live
// controls are mounted over the page by stage.js.
(() => {
  // mulberry32: a small seeded PRNG, so a block's drawn values come from its seed.
  function prng(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const pick = (random, list) => list[Math.floor(random() * list.length)];

  // 24x24 line icons, drawn with the current text colour.
  const ICONS = {
    gear: "M12 8.5a3.5 3.5 0 1 0 0 7a3.5 3.5 0 1 0 0-7zM12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1",
    user: "M12 12a4 4 0 1 0 0-8a4 4 0 0 0 0 8zM4 21c1-4 4.5-6 8-6s7 2 8 6",
    bell: "M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4",
    lock: "M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4",
    cloud: "M7 18h10a4 4 0 0 0 0-8a6 6 0 0 0-11.5 1.5A3.3 3.3 0 0 0 7 18z",
    shield: "M12 3l8 3v6c0 5-3.5 8-8 9c-4.5-1-8-4-8-9V6z",
    sliders: "M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4",
    play: "M8 5l11 7l-11 7z",
    cart: "M3 4h3l2.5 11h10l2-8H7M10 20a1 1 0 1 0 0-.1M17 20a1 1 0 1 0 0-.1",
    chart: "M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-7",
    grid: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z",
    folder: "M3 6h6l2 2h10v11H3z",
    clock: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 3",
    star: "M12 3l2.8 5.8l6.2.9l-4.5 4.4l1 6.2L12 17.4L6.5 20.3l1-6.2L3 9.7l6.2-.9z",
    trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13",
    mail: "M3 6h18v12H3zM3 6l9 7l9-7",
    inbox: "M3 13l3-8h12l3 8v6H3zM3 13h5l1 3h6l1-3h5",
    send: "M3 11l18-8l-8 18l-2-8z",
    file: "M6 3h8l4 4v14H6zM14 3v4h4",
    tag: "M3 12V4h8l10 10l-8 8zM7.5 7.5h0",
    table: "M3 5h18v14H3zM3 10h18M3 15h18M9 5v14",
    image: "M3 5h18v14H3zM3 16l5-5l4 4l3-3l6 6M15.5 8.5h0",
    search: "M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zM15.5 15.5L21 21",
    heart: "M12 20s-8-5-8-11a4.5 4.5 0 0 1 8-2.5A4.5 4.5 0 0 1 20 9c0 6-8 11-8 11z",
    // A phone's (widgets/scenes/mobile.py): app bar, bottom bar and list icons.
    back: "M20 12H5M11 5l-7 7l7 7",
    menu: "M4 7h16M4 12h16M4 17h16",
    down: "M6 9l6 6l6-6",
    more: "M12 5v.01M12 12v.01M12 19v.01",
    plus: "M12 5v14M5 12h14",
    home: "M4 11l8-7l8 7v9h-5v-6h-6v6H4z",
    library: "M5 4v16M10 4v16M15 5l4 15",
    alarm: "M12 7a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM12 10v4l2 2M4 6l3-3M20 6l-3-3",
    timer: "M12 8a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zM12 11v3.5M10 3h4M12 3v2",
    stopwatch: "M12 8a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13zM12 14.5l3-3M10 3h4M18 6l1.5-1.5",
    pin: "M12 21s-7-6.5-7-12a7 7 0 0 1 14 0c0 5.5-7 12-7 12zM12 7a2 2 0 1 0 0 4a2 2 0 1 0 0-4z",
    route: "M6 17a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM18 3a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM6 17V9a3 3 0 0 1 3-3h5M18 7v8a3 3 0 0 1-3 3h-5",
    phone: "M5 4h4l2 5l-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z",
    chat: "M4 5h16v11H9l-5 4z",
    run: "M14 3a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zM7 21l3-6l3 2v5M10 15l1.5-6l3.5 3l3 1M11.5 9l-4 1.5l-1 3",
    card: "M3 6h18v12H3zM3 10h18M6 15h4",
    sun: "M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8zM12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.5 1.5M17.5 17.5L19 19M5 19l1.5-1.5M17.5 6.5L19 5",
    calendar: "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4",
    chevron: "M9 5l7 7l-7 7",
    rain: "M7 15a4 4 0 0 1 0-8a5.5 5.5 0 0 1 10.5 1.5A3.3 3.3 0 0 1 17 15zM8 18l-1 2M12 18l-1 2M16 18l-1 2",
  };
  function icon(name, size = 20) {
    const node = document.createElement("span");
    node.className = "fsp-icon";
    node.innerHTML = `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" ` +
      `stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">` +
      `<path d="${ICONS[name] || ICONS.grid}"/></svg>`;
    return node;
  }
  // Text written into SVG markup, as text: never markup of its own.
  const escaped = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  // An inline SVG of `w` x `h` whose markup is built from our own numbers only.
  function svg(w, h, body) {
    const node = document.createElement("div");
    node.className = "fsp-svg";
    node.innerHTML = `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
    return node;
  }
  const hsl = (h, s, l) => `hsl(${Math.round(h)} ${Math.round(s)}% ${Math.round(l)}%)`;
  // A drawn landscape: sky, sun, two ranges of hills, water: a photo or a video frame.
  function landscape(w, h, random, dusk = false) {
    const hue = 180 + random() * 60, sunX = w * (0.2 + random() * 0.6);
    const sky = dusk ? [hsl(20 + random() * 20, 80, 62), hsl(280, 40, 40)]
      : [hsl(hue, 70, 78), hsl(hue + 10, 60, 55)];
    const ridge = (base, amp, color) => {
      let d = `M0 ${h}`;
      for (let i = 0; i <= 8; i++) d += ` L${(w * i) / 8} ${base - random() * amp}`;
      return `<path d="${d} L${w} ${h}Z" fill="${color}"/>`;
    };
    return `<defs><linearGradient id="sky${Math.floor(random() * 1e9)}" x1="0" y1="0" x2="0" y2="1">` +
      `<stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/>` +
      `</linearGradient></defs>` +
      `<rect width="${w}" height="${h}" fill="${sky[1]}"/>` +
      `<rect width="${w}" height="${h * 0.6}" fill="${sky[0]}" opacity="0.7"/>` +
      `<circle cx="${sunX}" cy="${h * 0.3}" r="${Math.max(8, h * 0.1)}" fill="${dusk ? "#ffd27a" : "#fff6c8"}"/>` +
      ridge(h * 0.62, h * 0.25, hsl(hue + 60, 25, dusk ? 30 : 45)) +
      ridge(h * 0.78, h * 0.15, hsl(hue + 80, 30, dusk ? 20 : 32)) +
      `<rect y="${h * 0.86}" width="${w}" height="${h * 0.14}" fill="${hsl(hue, 45, dusk ? 25 : 42)}"/>`;
  }
  const text = (kit, cls, value) => kit.el("div", { class: cls, text: value });
  const money = (random, lo, hi) => `€${(lo + random() * (hi - lo)).toFixed(2)}`;
  const initials = (name) => name.split(" ").map((p) => p[0]).join("").slice(0, 2);

  const painters = {
    appbar(node, b, kit) {
      const nav = kit.el("div", { class: "fsp-appbar-nav" }, ...b.nav.map((item, i) =>
        kit.el("span", { class: i === b.active ? "fsp-appbar-link fsp-on" : "fsp-appbar-link",
                         text: item })));
      node.append(kit.el("div", { class: "fsp-appbar-brand" }, icon(b.icon, 22),
                         text(kit, "fsp-appbar-title", b.title)), nav,
                  kit.el("div", { class: "fsp-appbar-search" }, icon("search", 16),
                         text(kit, "", "Search")),
                  kit.el("div", { class: "fsp-appbar-tools" }, icon("bell", 20),
                         kit.el("span", { class: "fsp-avatar", text: "AR" })));
    },
    sidebar(node, b, kit) {
      for (const [i, [name, label]] of b.items.entries()) {
        node.append(kit.el("div", { class: i === b.active ? "fsp-side-item fsp-on" : "fsp-side-item" },
                           icon(name, 18), text(kit, "", label)));
      }
    },
    title(node, b, kit) { node.append(text(kit, "fs-page-title", b.text)); },
    text(node, b, kit) { node.append(text(kit, "fs-page-text", b.text)); },
    heading(node, b, kit) { node.append(text(kit, "fsp-section-heading", b.text)); },
    illustration(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      const hue = random() * 360;
      node.classList.add("fsp-panel");
      node.append(svg(120, h - 2,
        `<rect x="18" y="${h / 2 - 36}" width="84" height="56" rx="6" fill="${hsl(hue, 50, 55)}"/>` +
        `<rect x="24" y="${h / 2 - 30}" width="72" height="44" rx="3" fill="${hsl(hue, 60, 88)}"/>` +
        `<rect x="50" y="${h / 2 + 20}" width="20" height="10" fill="${hsl(hue, 30, 45)}"/>` +
        `<rect x="38" y="${h / 2 + 30}" width="44" height="5" rx="2" fill="${hsl(hue, 30, 45)}"/>` +
        `<circle cx="60" cy="${h / 2 - 8}" r="12" fill="${hsl(hue + 40, 70, 60)}"/>`),
        kit.el("div", { class: "fsp-panel-body", style: { width: `${w - 140}px` } },
          text(kit, "fsp-panel-head", pick(random, b.words.heads)),
          text(kit, "fs-page-text", pick(random, b.words.lines)),
          text(kit, "fs-page-text", pick(random, b.words.lines)),
          kit.el("span", { class: "fsp-fake-button", text: "Learn more" })));
    },
    article(node, b, kit) {
      const random = prng(b.seed);
      const lines = b.words.lines || b.words.comments || b.words.subjects || ["—"];
      node.classList.add("fsp-panel", "fsp-column");
      node.append(text(kit, "fsp-panel-head", pick(random, ["Tips", "About", "Good to know",
                                                             "Details"])));
      for (let i = 0; i < 6; i++) node.append(text(kit, "fs-page-text", pick(random, lines)));
    },
    stats(node, b, kit) {
      const random = prng(b.seed), [, , w] = b.rect;
      const names = b.words.stats || ["Total", "Active", "New", "Done"];
      const count = Math.max(2, Math.min(4, Math.floor(w / 150)));
      const first = Math.floor(random() * names.length);
      node.classList.add("fsp-tiles");
      for (let i = 0; i < count; i++) {
        const up = random() > 0.4;
        node.append(kit.el("div", { class: "fsp-tile" },
          text(kit, "fsp-tile-label", names[(first + i) % names.length]),
          text(kit, "fsp-tile-value", `${Math.floor(100 + random() * 9900).toLocaleString("en")}`),
          text(kit, up ? "fsp-tile-delta fsp-up" : "fsp-tile-delta fsp-down",
               `${up ? "▲" : "▼"} ${(random() * 12).toFixed(1)}%`)));
      }
    },
    video(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      const frame = svg(w, h, landscape(w, h, random, random() > 0.5) +
        `<rect y="${h - 34}" width="${w}" height="34" fill="rgba(0,0,0,0.55)"/>` +
        `<rect x="12" y="${h - 10}" width="${w - 24}" height="3" fill="rgba(255,255,255,0.35)"/>` +
        `<rect x="12" y="${h - 10}" width="${(w - 24) * (0.1 + random() * 0.7)}" height="3" fill="#ff4d4d"/>` +
        `<circle cx="${w / 2}" cy="${(h - 34) / 2}" r="26" fill="rgba(0,0,0,0.5)"/>` +
        `<path d="M${w / 2 - 8} ${(h - 34) / 2 - 13} l22 13 l-22 13z" fill="#fff"/>`);
      node.classList.add("fsp-media");
      node.append(frame, text(kit, "fsp-media-caption", pick(random, b.words.videos || ["Video"])));
    },
    photo(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      node.classList.add("fsp-media");
      node.append(svg(w, h, landscape(w, h, random, random() > 0.6) +
        `<rect x="${w * 0.1}" y="${h * 0.1}" width="${w * 0.8}" height="${h * 0.8}" fill="none" ` +
        `stroke="#fff" stroke-width="1.5" stroke-dasharray="6 4"/>` +
        [0, 1].map((i) => `<line x1="${w * (0.1 + 0.8 * (i + 1) / 3)}" y1="${h * 0.1}" ` +
          `x2="${w * (0.1 + 0.8 * (i + 1) / 3)}" y2="${h * 0.9}" stroke="rgba(255,255,255,0.5)"/>`)
          .join("")));
    },
    thumbs(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      const names = b.words.videos || ["Item"];
      const count = Math.max(2, Math.floor(w / 170)), tw = Math.floor((w - (count - 1) * 12) / count);
      const th = Math.min(Math.floor(tw * 0.6), h - 30);
      node.classList.add("fsp-thumbs");
      for (let i = 0; i < count; i++) {
        node.append(kit.el("div", { class: "fsp-thumb", style: { width: `${tw}px` } },
          svg(tw, th, landscape(tw, th, random)), text(kit, "fsp-thumb-caption", pick(random, names))));
      }
    },
    comments(node, b, kit) {
      const random = prng(b.seed);
      node.classList.add("fsp-column");
      for (let i = 0; i < 6; i++) {
        const name = pick(random, b.words.names);
        node.append(kit.el("div", { class: "fsp-row" },
          kit.el("span", { class: "fsp-avatar", style: { background: hsl(random() * 360, 45, 55) },
                           text: initials(name) }),
          kit.el("div", {}, text(kit, "fsp-row-title", name),
                 text(kit, "fs-page-text", pick(random, b.words.comments)))));
      }
    },
    summary(node, b, kit) {
      const random = prng(b.seed);
      node.classList.add("fsp-panel", "fsp-column");
      node.append(text(kit, "fsp-panel-head", "Order summary"));
      let total = 0;
      const items = b.words.items || ["Item"];
      for (let i = 0; i < 3; i++) {
        const price = 5 + random() * 120;
        total += price;
        node.append(kit.el("div", { class: "fsp-line" }, text(kit, "", pick(random, items)),
                           text(kit, "", `€${price.toFixed(2)}`)));
      }
      node.append(kit.el("div", { class: "fsp-line fsp-total" }, text(kit, "", "Total"),
                         text(kit, "", `€${total.toFixed(2)}`)),
                  kit.el("span", { class: "fsp-fake-button fsp-primary", text: "Continue" }));
    },
    chart(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      const labels = b.words.series || ["A", "B", "C", "D", "E", "F", "G"];
      const cw = w - 32, ch = h - 64, n = labels.length;
      let bars = "", line = "";
      for (let i = 0; i < n; i++) {
        const v = 0.2 + random() * 0.75, x = 8 + (i + 0.5) * (cw / n);
        bars += `<rect x="${x - cw / n / 4}" y="${ch - v * ch}" width="${cw / n / 2}" height="${v * ch}" ` +
          `rx="2" fill="var(--fs-accent)" opacity="0.35"/>`;
        line += `${i ? "L" : "M"}${x} ${ch - (0.1 + random() * 0.8) * ch} `;
        bars += `<text x="${x}" y="${ch + 14}" font-size="11" text-anchor="middle" fill="var(--fs-muted)">${escaped(labels[i])}</text>`;
      }
      node.classList.add("fsp-panel", "fsp-column");
      node.append(text(kit, "fsp-panel-head", pick(random, ["Sessions", "Revenue", "Sign-ups",
                                                             "Page views"])),
        svg(cw + 16, ch + 18, `<line x1="0" y1="${ch}" x2="${cw + 16}" y2="${ch}" stroke="var(--fs-border)"/>` +
          bars + `<path d="${line}" fill="none" stroke="var(--fs-accent)" stroke-width="2.5"/>`));
    },
    files(node, b, kit) {
      const random = prng(b.seed);
      node.classList.add("fsp-panel", "fsp-column");
      node.append(kit.el("div", { class: "fsp-line fsp-head" }, text(kit, "", "Name"),
                         text(kit, "", "Size")));
      for (let i = 0; i < 8; i++) {
        const name = pick(random, b.words.files);
        const folder = !name.includes(".");
        node.append(kit.el("div", { class: "fsp-line" },
          kit.el("span", { class: "fsp-file" }, icon(folder ? "folder" : "file", 16),
                 text(kit, "", name)),
          text(kit, "fsp-muted", folder ? `${Math.floor(2 + random() * 40)} items`
                                       : `${(0.1 + random() * 20).toFixed(1)} MB`)));
      }
    },
    mails(node, b, kit) {
      const random = prng(b.seed);
      node.classList.add("fsp-panel", "fsp-column");
      for (let i = 0; i < 8; i++) {
        const name = pick(random, b.words.names), unread = random() > 0.6;
        node.append(kit.el("div", { class: unread ? "fsp-mail fsp-unread" : "fsp-mail" },
          kit.el("span", { class: "fsp-avatar", style: { background: hsl(random() * 360, 45, 55) },
                           text: initials(name) }),
          text(kit, "fsp-mail-from", name), text(kit, "fsp-mail-subject", pick(random, b.words.subjects)),
          text(kit, "fsp-muted", `${8 + Math.floor(random() * 10)}:${String(Math.floor(random() * 60)).padStart(2, "0")}`)));
      }
    },
    table(node, b, kit) {
      const random = prng(b.seed), [, , w] = b.rect;
      const columns = b.words.columns.slice(0, Math.max(3, Math.floor(w / 90)));
      node.classList.add("fsp-panel", "fsp-column", "fsp-sheet");
      node.append(kit.el("div", { class: "fsp-sheet-row fsp-head" },
        ...columns.map((c) => text(kit, "fsp-sheet-cell", c))));
      for (let r = 0; r < 12; r++) {
        node.append(kit.el("div", { class: "fsp-sheet-row" }, ...columns.map((c, i) =>
          text(kit, "fsp-sheet-cell", i === 0 ? pick(random, b.words.rows)
            : c === "Owner" ? "—" : Math.floor(random() * 9000 + 100).toLocaleString("en")))));
      }
    },
    product(node, b, kit) {
      const random = prng(b.seed), [, , w, h] = b.rect;
      const hue = random() * 360;
      node.classList.add("fsp-media", "fsp-product");
      node.append(svg(w, h,
        `<rect width="${w}" height="${h}" fill="${hsl(hue, 30, 92)}"/>` +
        `<ellipse cx="${w / 2}" cy="${h * 0.82}" rx="${w * 0.28}" ry="${h * 0.06}" fill="rgba(0,0,0,0.12)"/>` +
        `<path d="M${w * 0.25} ${h * 0.75} Q${w * 0.3} ${h * 0.3} ${w * 0.5} ${h * 0.28} ` +
        `Q${w * 0.72} ${h * 0.3} ${w * 0.75} ${h * 0.75}Z" fill="${hsl(hue, 55, 50)}"/>` +
        `<rect x="${w * 0.42}" y="${h * 0.18}" width="${w * 0.16}" height="${h * 0.12}" rx="4" fill="${hsl(hue, 40, 35)}"/>` +
        `<circle cx="${w * 0.5}" cy="${h * 0.52}" r="${h * 0.08}" fill="${hsl(hue + 30, 70, 85)}"/>`),
        text(kit, "fsp-media-caption", pick(random, ["New", "Bestseller", "-20%", "Eco"])));
    },
  };
  Object.assign(painters, phonePainters());
  for (const [kind, paint] of Object.entries(painters)) FineState.defineBlock(kind, paint);

  // A phone's page (widgets/scenes/mobile.py): the system bars, the app's bars, and the
  // signature images and lists of its nine templates. Sizes follow the block's rect.
  function phonePainters() {
    // A time of day on a message: 08:00 to 19:59.
    const hhmm = (random) =>
      `${8 + Math.floor(random() * 12)}:${String(Math.floor(random() * 60)).padStart(2, "0")}`;
    const clockText = (random) =>
      `${String(5 + Math.floor(random() * 4)).padStart(2, "0")}:${pick(random, ["00", "15", "30", "45"])}`;
    // Rows of a list, each [leading node, title, subtitle, trailing text], as many as fit.
    function listRows(node, b, kit, rows, row = 52) {
      node.classList.add("fsp-panel", "fsp-column", "fsm-list");
      const count = Math.max(1, Math.floor((b.rect[3] - 10) / row));
      for (let i = 0; i < count; i++) {
        const [lead, title, sub, trail] = rows(i);
        node.append(kit.el("div", { class: "fsm-row" }, lead,
          kit.el("div", { class: "fsm-row-text" }, text(kit, "fsm-row-title", title),
                 sub ? text(kit, "fs-page-text", sub) : ""),
          text(kit, "fsp-muted fsm-row-trail", trail)));
      }
    }
    const avatar = (kit, random, label) => kit.el("span", {
      class: "fsp-avatar", style: { background: hsl(random() * 360, 45, 55) }, text: label });
    return {
      statusbar(node, b, kit) {
        const bars = [0, 1, 2, 3].map((i) => `<rect x="${i * 4}" y="${9 - i * 3}" width="3" ` +
          `height="${3 + i * 3}" rx="0.5" fill="currentColor" opacity="${i < b.signal ? 1 : 0.3}"/>`).join("");
        const level = Math.round(16 * b.battery / 100);
        node.append(text(kit, "fsm-time", b.time),
          kit.el("div", { class: "fsm-status-icons" },
            svg(16, 12, bars),
            svg(16, 12, `<path d="M1 4.5a10 10 0 0 1 14 0M3.5 7a6.5 6.5 0 0 1 9 0M6 9.5a3 3 0 0 1 4 0" ` +
                        `fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>`),
            svg(26, 12, `<rect x="0.5" y="0.5" width="21" height="11" rx="2.5" fill="none" ` +
                        `stroke="currentColor" opacity="0.5"/><rect x="23" y="4" width="2" height="4" ` +
                        `rx="1" fill="currentColor" opacity="0.5"/><rect x="3" y="3" width="${level}" ` +
                        `height="6" rx="1" fill="${b.battery < 20 ? "#d93025" : "currentColor"}"/>`),
            text(kit, "fsm-battery", `${b.battery}%`)));
      },
      phone_appbar(node, b, kit) {
        node.append(icon(b.icon, 22), text(kit, "fsm-appbar-title", b.title),
          kit.el("div", { class: "fsm-appbar-actions" }, ...b.actions.map((name) => icon(name, 22))));
      },
      bottomnav(node, b, kit) {
        for (const [i, [name, label]] of b.items.entries()) {
          node.append(kit.el("div", { class: i === b.active ? "fsm-tab fsp-on" : "fsm-tab" },
            kit.el("span", { class: "fsm-tab-icon" }, icon(name, 20)), text(kit, "fsm-tab-label", label)));
        }
      },
      profile(node, b, kit) {
        const random = prng(b.seed);
        const [name, sub] = b.text.includes("·") ? b.text.split(" · ") : ["Ana Ruiz", b.text];
        node.classList.add("fsp-panel", "fsm-hero-row");
        node.append(avatar(kit, random, initials(name)),
          kit.el("div", { class: "fsm-row-text" }, text(kit, "fsp-panel-head", name),
                 text(kit, "fs-page-text", sub),
                 text(kit, "fs-page-text", pick(random, b.words.lines))),
          icon("chevron", 18));
      },
      album(node, b, kit) {
        const random = prng(b.seed), [, , w, h] = b.rect, side = h - 24, hue = random() * 360;
        const [song, artist] = b.text.split(" · ");
        let wave = "";
        for (let i = 0; i < 28; i++) {
          const v = 4 + random() * 22;
          wave += `<rect x="${i * 7}" y="${15 - v / 2}" width="4" height="${v}" rx="2" fill="var(--fs-accent)" opacity="${i < 11 ? 1 : 0.35}"/>`;
        }
        node.classList.add("fsp-panel", "fsm-hero-row");
        node.append(svg(side, side,
          `<rect width="${side}" height="${side}" rx="10" fill="${hsl(hue, 55, 45)}"/>` +
          `<circle cx="${side * 0.5}" cy="${side * 0.55}" r="${side * 0.32}" fill="${hsl(hue + 40, 70, 65)}"/>` +
          `<circle cx="${side * 0.5}" cy="${side * 0.55}" r="${side * 0.08}" fill="${hsl(hue, 55, 30)}"/>` +
          `<path d="M0 ${side * 0.8} Q${side / 2} ${side * 0.6} ${side} ${side * 0.85} V${side} H0z" fill="${hsl(hue + 200, 40, 35)}" opacity="0.8"/>`),
          kit.el("div", { class: "fsm-row-text" }, text(kit, "fsm-big", song),
                 text(kit, "fs-page-text", artist), svg(Math.min(196, w - side - 60), 30, wave)));
      },
      clock(node, b, kit) {
        const random = prng(b.seed);
        node.classList.add("fsp-panel", "fsp-column", "fsm-center");
        node.append(text(kit, "fsm-clock", clockText(random)), text(kit, "fs-page-text", b.text),
          kit.el("div", { class: "fsm-days" }, ..."MTWTFSS".split("").map((d) =>
            kit.el("span", { class: random() > 0.45 ? "fsm-day fsp-on" : "fsm-day", text: d }))));
      },
      map(node, b, kit) {
        const random = prng(b.seed), [, , w, h] = b.rect;
        let streets = "";
        for (let i = 1; i < 6; i++) {
          const x = (w * i) / 6 + (random() - 0.5) * 30, y = (h * i) / 4 + (random() - 0.5) * 20;
          streets += `<path d="M${x} 0 L${x + (random() - 0.5) * 60} ${h}" stroke="#fff" stroke-width="${i % 2 ? 6 : 3}"/>`;
          if (i < 4) streets += `<path d="M0 ${y} L${w} ${y + (random() - 0.5) * 40}" stroke="#fff" stroke-width="${i % 2 ? 3 : 6}"/>`;
        }
        const px = w * (0.3 + random() * 0.4), py = h * (0.3 + random() * 0.3);
        node.classList.add("fsp-media", "fsm-map");
        node.append(svg(w, h, `<rect width="${w}" height="${h}" fill="#e8eadf"/>` +
          `<path d="M${w * 0.6} 0 Q${w * 0.5} ${h * 0.5} ${w} ${h * 0.7} V0z" fill="#b9d7f0"/>` +
          `<rect x="${w * 0.05}" y="${h * 0.55}" width="${w * 0.25}" height="${h * 0.35}" rx="8" fill="#c7e3b5"/>` +
          streets + `<path d="M${px} ${py + 22} l-9 -14 a11 11 0 1 1 18 0z" fill="#d93025"/>` +
          `<circle cx="${px}" cy="${py}" r="4" fill="#fff"/>`),
          text(kit, "fsp-media-caption", b.text));
      },
      chat(node, b, kit) {
        const random = prng(b.seed);
        node.classList.add("fsp-column", "fsm-chat");
        const count = Math.max(1, Math.floor((b.rect[3] - 8) / 44));
        // The messages in a drawn order, none twice (there are more than fit).
        const order = b.words.messages.map((m) => [random(), m]).sort((x, y) => x[0] - y[0]);
        for (let i = 0; i < count; i++) {
          const mine = random() > 0.5;
          node.append(kit.el("div", { class: mine ? "fsm-bubble fsm-mine" : "fsm-bubble" },
            text(kit, "", order[i % order.length][1]),
            text(kit, "fsm-bubble-time", hhmm(random))));
        }
      },
      chats(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => {
          const name = pick(random, b.words.names);
          return [avatar(kit, random, initials(name)), name, pick(random, b.words.messages),
                  hhmm(random)];
        });
      },
      rings(node, b, kit) {
        const random = prng(b.seed), [, , , h] = b.rect, r0 = (h - 24) / 2;
        const colors = ["#e53935", "#43a047", "#1e88e5"], names = ["Move", "Exercise", "Stand"];
        let arcs = "";
        const values = colors.map(() => 0.3 + random() * 0.65);
        colors.forEach((c, i) => {
          const r = r0 - 4 - i * 12, len = 2 * Math.PI * r;
          arcs += `<circle cx="${r0}" cy="${r0}" r="${r}" fill="none" stroke="${c}" stroke-width="9" opacity="0.2"/>` +
            `<circle cx="${r0}" cy="${r0}" r="${r}" fill="none" stroke="${c}" stroke-width="9" stroke-linecap="round" ` +
            `stroke-dasharray="${len * values[i]} ${len}" transform="rotate(-90 ${r0} ${r0})"/>`;
        });
        node.classList.add("fsp-panel", "fsm-hero-row");
        node.append(svg(2 * r0, 2 * r0, arcs), kit.el("div", { class: "fsm-row-text" },
          text(kit, "fs-page-text", b.text),
          ...names.map((n, i) => kit.el("div", { class: "fsm-ring-line", style: { color: colors[i] } },
            text(kit, "", n), text(kit, "", `${Math.round(values[i] * 100)}%`)))));
      },
      card(node, b, kit) {
        const random = prng(b.seed), hue = 200 + random() * 80;
        node.classList.add("fsm-bank-card");
        node.style.background = `linear-gradient(135deg, ${hsl(hue, 60, 40)}, ${hsl(hue + 40, 60, 25)})`;
        node.append(text(kit, "fsm-card-label", "Balance"),
          text(kit, "fsm-card-balance", `€${Math.floor(200 + random() * 9000).toLocaleString("en")}.${String(Math.floor(random() * 100)).padStart(2, "0")}`),
          text(kit, "fsm-card-number", `•••• •••• •••• ${String(1000 + Math.floor(random() * 9000))}`),
          text(kit, "fsm-card-label", b.text));
      },
      weather(node, b, kit) {
        const random = prng(b.seed), rain = b.text.includes("rain");
        node.classList.add("fsp-panel", "fsm-hero-row", "fsm-weather");
        node.append(kit.el("span", { class: "fsm-weather-icon" }, icon(rain ? "rain" : "sun", 64)),
          kit.el("div", { class: "fsm-row-text" },
            text(kit, "fsm-clock", `${Math.floor(8 + random() * 20)}°`), text(kit, "fs-page-text", b.text),
            text(kit, "fs-page-text", `H ${Math.floor(18 + random() * 10)}°  L ${Math.floor(5 + random() * 10)}°`)));
      },
      rows(node, b, kit) {
        const random = prng(b.seed), names = ["gear", "star", "shield", "image", "clock", "cloud"];
        listRows(node, b, kit, () => [kit.el("span", { class: "fsm-row-icon" }, icon(pick(random, names), 20)),
                                      pick(random, b.words.rows), "", "›"], 44);
      },
      songs(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => [avatar(kit, random, "♪"), pick(random, b.words.songs),
          pick(random, b.words.artists), `${2 + Math.floor(random() * 3)}:${String(Math.floor(random() * 60)).padStart(2, "0")}`]);
      },
      alarms(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => [kit.el("span", { class: "fsm-row-icon" }, icon("alarm", 20)),
          clockText(random), `${pick(random, b.words.alarms)} · ${pick(random, b.words.days)}`, ""]);
      },
      places(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => [kit.el("span", { class: "fsm-row-icon" }, icon("pin", 20)),
          pick(random, b.words.places), `${pick(random, b.words.kinds)} · ${(0.2 + random() * 4).toFixed(1)} km`,
          `${Math.floor(2 + random() * 30)} min`]);
      },
      transactions(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => {
          const income = random() > 0.8;
          return [kit.el("span", { class: "fsm-row-icon" }, icon(income ? "send" : "card", 20)),
                  pick(random, b.words.merchants), pick(random, b.words.kinds),
                  `${income ? "+" : "−"}€${(2 + random() * (income ? 2000 : 80)).toFixed(2)}`];
        });
      },
      basket(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => {
          const item = pick(random, b.words.items);
          return [avatar(kit, random, initials(item)), item, `Qty ${1 + Math.floor(random() * 3)}`,
                  `€${(5 + random() * 120).toFixed(2)}`];
        });
      },
      workouts(node, b, kit) {
        const random = prng(b.seed);
        listRows(node, b, kit, () => [kit.el("span", { class: "fsm-row-icon" }, icon("run", 20)),
          pick(random, b.words.workouts), `${(1 + random() * 9).toFixed(1)} km · ${pick(random, b.words.days)}`,
          `${Math.floor(15 + random() * 60)} min`]);
      },
      forecast(node, b, kit) {
        const random = prng(b.seed);
        let day = Math.floor(random() * 7);
        listRows(node, b, kit, () => {
          const sky = pick(random, b.words.skies), lo = Math.floor(4 + random() * 10);
          return [kit.el("span", { class: "fsm-row-icon" }, icon(sky, 20)), b.words.days[day++ % 7], "",
                  `${lo + Math.floor(3 + random() * 9)}° / ${lo}°`];
        }, 40);
      },
    };
  }
})();
