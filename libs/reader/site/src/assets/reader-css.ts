/**
 * The reader's stylesheet: light and dark themes as custom properties (dark follows the system
 * unless the reader chose one: `html[data-theme]`), colours checked for WCAG AA contrast, no web
 * fonts. Served once with a content hash in its URL.
 */
const LIGHT = `
  --bg: #ffffff; --fg: #1f2328; --muted: #57606a; --link: #0550ae; --border: #d0d7de; --panel: #f6f8fa;
  --accent-bg: #ddf4ff; --hint-info: #ddf4ff; --hint-success: #dafbe1; --hint-warning: #fff8c5; --hint-danger: #ffebe9;
  --hint-info-edge: #0969da; --hint-success-edge: #1a7f37; --hint-warning-edge: #9a6700; --hint-danger-edge: #cf222e;
  --code-bg: #f6f8fa; --hl-keyword: #cf222e; --hl-string: #0a3069; --hl-number: #0550ae; --hl-comment: #59636e;
  --hl-title: #6639ba; --hl-built: #953800; --hl-add: #116329; --hl-line: #fff8c5;
  --c-green: #1a7f37; --c-blue: #0550ae; --c-red: #cf222e; --c-orange: #bc4c00; --c-yellow: #7d4e00; --c-purple: #6639ba; --c-pink: #bf3989; --c-cyan: #0a6e7d;
  color-scheme: light;`;
const DARK = `
  --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --link: #6cb6ff; --border: #30363d; --panel: #161b22;
  --accent-bg: #0c2d6b; --hint-info: #0c2d6b; --hint-success: #033a16; --hint-warning: #3d2e00; --hint-danger: #4c0519;
  --hint-info-edge: #4493f8; --hint-success-edge: #3fb950; --hint-warning-edge: #d29922; --hint-danger-edge: #f85149;
  --code-bg: #161b22; --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-number: #79c0ff; --hl-comment: #8b949e;
  --hl-title: #d2a8ff; --hl-built: #ffa657; --hl-add: #7ee787; --hl-line: #2d2a17;
  --c-green: #3fb950; --c-blue: #6cb6ff; --c-red: #ff7b72; --c-orange: #ffa657; --c-yellow: #d29922; --c-purple: #d2a8ff; --c-pink: #ff9bce; --c-cyan: #76e3ea;
  color-scheme: dark;`;

export const READER_CSS = `
:root {${LIGHT}
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) {${DARK} } }
:root[data-theme="dark"] {${DARK} }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.6 var(--sans); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
.skip-link { position: absolute; left: -9999px; top: 0; background: var(--bg); color: var(--link); padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: 1rem; top: 1rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

.site-header { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .6rem 1.25rem; border-bottom: 1px solid var(--border); background: var(--bg); }
.site-title { font-weight: 700; font-size: 1.1rem; color: var(--fg); text-decoration: none; }
.sections { flex: 1; }
.sections > ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
.sections a, .sections summary { display: inline-block; padding: .3rem .6rem; border-radius: var(--radius, 6px); color: var(--fg); text-decoration: none; cursor: pointer; }
.sections a[aria-current="true"], .sections a[aria-current="page"] { background: var(--accent-bg); color: var(--link); font-weight: 600; }
.section-group { position: relative; }
.section-group ul { position: absolute; margin: .25rem 0 0; padding: .25rem; list-style: none; background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); min-width: 12rem; }
.search-form { display: flex; gap: .25rem; }
.search-form input { font: inherit; padding: .25rem .5rem; border: 1px solid var(--border); border-radius: var(--radius, 6px); background: var(--bg); color: var(--fg); width: 12rem; }
.search-form button, .theme-toggle { font: inherit; padding: .25rem .6rem; border: 1px solid var(--border); border-radius: var(--radius, 6px); background: var(--panel); color: var(--fg); cursor: pointer; }
.theme-toggle .when-dark { display: none; }
:root[data-theme="dark"] .theme-toggle .when-dark { display: inline; }
:root[data-theme="dark"] .theme-toggle .when-light { display: none; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) .theme-toggle .when-dark { display: inline; }
  :root:not([data-theme="light"]) .theme-toggle .when-light { display: none; }
}

.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr) 14rem; gap: 2rem; max-width: 90rem; margin: 0 auto; padding: 0 1.25rem; }
.sidebar { position: sticky; top: 3.5rem; align-self: start; max-height: calc(100vh - 4rem); overflow: auto; padding: 1rem 0; font-size: .95rem; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar ul ul { padding-left: .9rem; border-left: 1px solid var(--border); margin-left: .4rem; }
.sidebar a { display: block; padding: .2rem .5rem; border-radius: var(--radius, 6px); color: var(--fg); text-decoration: none; }
.sidebar a:hover { background: var(--panel); }
.sidebar a[aria-current="page"] { background: var(--accent-bg); color: var(--link); font-weight: 600; }
.nav-group { margin-top: 1rem; }
.nav-group-title { display: block; padding: .2rem .5rem; font-size: .8rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.variant-switcher { margin-bottom: 1rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); }
.variant-switcher summary { padding: .35rem .6rem; cursor: pointer; }
.variant-switcher ul { padding: .25rem; }
.toc { position: sticky; top: 3.5rem; align-self: start; padding: 1rem 0; font-size: .875rem; }
.toc h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 .5rem; }
.toc ul { list-style: none; margin: 0; padding: 0; }
.toc li.level-2 { padding-left: .75rem; }
.toc li.level-3 { padding-left: 1.5rem; }
.toc a { color: var(--muted); text-decoration: none; display: block; padding: .1rem 0; }
.toc a:hover { color: var(--link); }
main { min-width: 0; padding: 1rem 0 4rem; }
main:focus { outline: none; }
.breadcrumbs ol { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0 0 .5rem; padding: 0; font-size: .875rem; color: var(--muted); }
.breadcrumbs li + li::before { content: "›"; margin-right: .25rem; }
.breadcrumbs a { color: var(--muted); }
.page-header h1 { font-size: 2.1rem; line-height: 1.25; margin: .25rem 0 .5rem; }
.page-description { font-size: 1.15rem; color: var(--muted); margin: 0 0 1.5rem; }
.pagination { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; }
.pagination a { flex: 1; display: block; padding: .75rem 1rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); text-decoration: none; }
.pagination a[rel="next"] { text-align: right; }
.pagination .label { display: block; font-size: .8rem; color: var(--muted); }
.site-footer { border-top: 1px solid var(--border); padding: 1rem 1.25rem; font-size: .875rem; color: var(--muted); text-align: center; }
.site-footer a { color: var(--muted); }
/* a site's brand (brand.ts sets --radius, --radius-lg, --link, --accent-bg, --panel, --sans, --mono) */
.site-logo { display: block; max-height: 2rem; width: auto; }
.header-links ul { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; margin: 0; padding: 0; list-style: none; }
.header-link, .header-menu summary { display: inline-block; padding: .3rem .6rem; border-radius: var(--radius, 6px); color: var(--fg); text-decoration: none; cursor: pointer; }
.header-menu { position: relative; }
.header-menu ul { position: absolute; z-index: 6; display: block; margin: .25rem 0 0; padding: .25rem; background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); min-width: 12rem; }
.header-menu ul a { display: block; padding: .3rem .6rem; color: var(--fg); text-decoration: none; }
.site-footer .footer-links { display: flex; flex-wrap: wrap; justify-content: center; gap: 1rem 3rem; margin-bottom: 1rem; text-align: left; }
.site-footer .footer-group h2 { margin: 0 0 .4rem; font-size: .875rem; color: var(--fg); }
.site-footer .footer-group ul { margin: 0; padding: 0; list-style: none; }
.footer-logo-img { max-height: 2rem; width: auto; }
.site-footer .copyright { margin: .5rem 0; }
@media (max-width: 70rem) { .layout { grid-template-columns: 15rem minmax(0, 1fr); } .toc { display: none; } }
/* Page layouts: no page tree, a wide page (the outline goes above the content), covers */
.layout-no-nav { grid-template-columns: minmax(0, 1fr) 14rem; max-width: 76rem; }
.layout-wide { grid-template-columns: 17rem minmax(0, 1fr); }
.layout-wide.layout-no-nav { grid-template-columns: minmax(0, 1fr); }
.page-cover { overflow: hidden; background: var(--panel); }
.page-cover img { display: block; width: 100%; height: 100%; object-fit: cover; }
.page-cover img.only-dark { display: none; }
:root[data-theme="dark"] .page-cover img.only-dark { display: block; } :root[data-theme="dark"] .page-cover img.only-light { display: none; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) .page-cover img.only-dark { display: block; } :root:not([data-theme="light"]) .page-cover img.only-light { display: none; } }
.page-cover-hero { border-radius: 12px; margin: .5rem 0 1.5rem; }
.page-cover-full { width: 100%; }
.nav-toggle, .nav-close, .toc-inline { display: none; }
.nav-toggle, .nav-close { font: inherit; padding: .25rem .75rem; border: 1px solid var(--border); border-radius: var(--radius, 6px); background: var(--panel); color: var(--fg); cursor: pointer; }
.nav-toggle { align-items: center; gap: .5rem; }
.nav-toggle-icon, .nav-toggle-icon::before, .nav-toggle-icon::after { display: block; width: 1rem; height: 2px; background: currentColor; border-radius: 1px; }
.nav-toggle-icon { position: relative; }
.nav-toggle-icon::before, .nav-toggle-icon::after { content: ""; position: absolute; left: 0; }
.nav-toggle-icon::before { top: -5px; } .nav-toggle-icon::after { top: 5px; }
.toc-inline { margin: 0 0 1rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); font-size: .95rem; }
.toc-inline summary { padding: .5rem .75rem; cursor: pointer; font-weight: 600; }
.toc-inline ul { list-style: none; margin: 0; padding: 0 .75rem .5rem; }
.toc-inline li.level-2 { padding-left: .75rem; }
.toc-inline a { display: block; padding: .2rem 0; }
.layout-wide .toc-inline { display: block; }
@media (max-width: 70rem) { .toc-inline { display: block; } .layout-no-nav { grid-template-columns: minmax(0, 1fr); } }
/* Phones: the page comes first. With the script the page tree opens from the menu button as a full-screen
   layer (focus kept inside, Escape closes); without it, the page tree follows the page. */
@media (max-width: 48rem) {
  .layout { display: flex; flex-direction: column; gap: 0; }
  .sidebar { order: 2; position: static; max-height: none; border-top: 1px solid var(--border); }
  .site-header { position: static; padding: .5rem .75rem; gap: .5rem; }
  .sections { flex-basis: 100%; order: 3; }
  .search-form { flex: 1 1 100%; order: 4; }
  .search-form input { flex: 1; width: auto; }
  :root:not(.no-js) .nav-toggle { display: inline-flex; }
  :root:not(.no-js) .sidebar { display: none; }
  :root.nav-open .sidebar { display: block; position: fixed; inset: 0; align-self: stretch; z-index: 20; overflow: auto; overscroll-behavior: contain; padding: .75rem 1rem 2rem; background: var(--bg); border: 0; }
  :root.nav-open .nav-close { display: block; margin: 0 0 .75rem auto; }
  :root.nav-open body { overflow: hidden; }
  /* touch targets of at least 44 × 44 CSS pixels */
  .sidebar a, .sidebar summary, .sections a, .sections summary, .toc-inline summary, .toc-inline a, .breadcrumbs a, .pagination a,
  .nav-toggle, .nav-close, .theme-toggle, .search-form button, .search-form input, .site-title { min-height: 44px; min-width: 44px; }
  .sidebar a, .sidebar summary, .toc-inline summary, .toc-inline a { display: flex; align-items: center; }
  .sections a, .sections summary, .breadcrumbs a, .site-title { display: inline-flex; align-items: center; }
  .breadcrumbs ol { align-items: center; }
}

/* Document blocks */
.document h2, .document h3, .document h4 { line-height: 1.3; margin: 2rem 0 .75rem; scroll-margin-top: 4rem; }
.heading-anchor { margin-left: .4rem; color: var(--muted); text-decoration: none; opacity: 0; }
h2:hover .heading-anchor, h3:hover .heading-anchor, h4:hover .heading-anchor, .heading-anchor:focus { opacity: 1; }
.align-center { text-align: center; } .align-right { text-align: right; }
code, kbd, pre { font-family: var(--mono); font-size: .9em; }
:not(pre) > code { background: var(--code-bg); border: 1px solid var(--border); border-radius: 4px; padding: .05em .3em; }
kbd { border: 1px solid var(--border); border-bottom-width: 2px; border-radius: 4px; padding: 0 .3em; background: var(--panel); }
blockquote { margin: 1rem 0; padding: .25rem 1rem; border-left: 4px solid var(--border); color: var(--muted); }
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }
.document img { max-width: 100%; height: auto; }
.only-dark { display: none; }
:root[data-theme="dark"] .only-dark { display: initial; } :root[data-theme="dark"] .only-light { display: none; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) .only-dark { display: initial; } :root:not([data-theme="light"]) .only-light { display: none; } }
.images { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1.5rem 0; }
.images.align-center { justify-content: center; } .images.align-right { justify-content: flex-end; }
.images figure { margin: 0; text-align: center; }
.images.frame figure { padding: .5rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); }
figcaption { font-size: .875rem; color: var(--muted); margin-top: .35rem; }
.inline-image.size-line { height: 1.2em; width: auto; vertical-align: middle; }
.emoji { font-style: normal; }
.color.text-green, .color.text-success { color: var(--c-green); } .color.text-blue, .color.text-primary, .color.text-info { color: var(--c-blue); }
.color.text-red, .color.text-danger { color: var(--c-red); } .color.text-orange { color: var(--c-orange); } .color.text-yellow, .color.text-warning { color: var(--c-yellow); }
.color.text-purple, .color.text-violet { color: var(--c-purple); } .color.text-pink { color: var(--c-pink); } .color.text-cyan { color: var(--c-cyan); }
.icon.text-green { color: var(--c-green); } .icon.text-blue { color: var(--c-blue); } .icon.text-red { color: var(--c-red); }
.bg-green { background: #dafbe1; color: #1f2328; } .bg-blue { background: #ddf4ff; color: #1f2328; } .bg-red { background: #ffebe9; color: #1f2328; }
.bg-orange { background: #fff1e5; color: #1f2328; } .bg-yellow { background: #fff8c5; color: #1f2328; } .bg-purple, .bg-violet { background: #fbefff; color: #1f2328; }
.bg-pink { background: #ffeff7; color: #1f2328; } .bg-cyan { background: #dff7fb; color: #1f2328; }
.bg-primary, .bg-info { background: #ddf4ff; color: #1f2328; } .bg-success { background: #dafbe1; color: #1f2328; } .bg-warning { background: #fff8c5; color: #1f2328; } .bg-danger { background: #ffebe9; color: #1f2328; }
.hint { display: flex; gap: .75rem; margin: 1.25rem 0; padding: .75rem 1rem; border-radius: var(--radius-lg, 8px); border-left: 4px solid var(--hint-info-edge); background: var(--hint-info); }
.hint-success { background: var(--hint-success); border-left-color: var(--hint-success-edge); }
.hint-warning { background: var(--hint-warning); border-left-color: var(--hint-warning-edge); }
.hint-danger { background: var(--hint-danger); border-left-color: var(--hint-danger-edge); }
.hint-body > :first-child { margin-top: 0; } .hint-body > :last-child { margin-bottom: 0; }
.hint-body { min-width: 0; flex: 1; }
.code-block { position: relative; margin: 1.25rem 0; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); background: var(--code-bg); overflow: hidden; }
.code-title { margin: 0; padding: .4rem .9rem; border-bottom: 1px solid var(--border); font: 600 .85rem var(--sans); color: var(--fg); }
.code-block pre { margin: 0; padding: .8rem 0; overflow-x: auto; line-height: 1.5; }
.code-block .line { display: inline-block; min-width: 100%; padding: 0 .9rem; }
.code-block .line.highlighted { background: var(--hl-line); }
.code-block.wrap pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.code-block.line-numbers code { counter-reset: line; }
.code-block.line-numbers .line::before { counter-increment: line; content: counter(line); display: inline-block; width: 2.5em; margin-right: .8rem; text-align: right; color: var(--hl-comment); user-select: none; }
.copy-code { position: absolute; top: .35rem; right: .35rem; font: .75rem var(--sans); padding: .15rem .5rem; border: 1px solid var(--border); border-radius: var(--radius, 6px); background: var(--bg); color: var(--fg); cursor: pointer; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal, .hljs-doctag, .hljs-meta .hljs-keyword, .hljs-type { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-meta .hljs-string { color: var(--hl-string); }
.hljs-number, .hljs-attr, .hljs-attribute, .hljs-variable, .hljs-template-variable, .hljs-selector-id, .hljs-selector-class, .hljs-symbol, .hljs-meta { color: var(--hl-number); }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-title, .hljs-section, .hljs-name, .hljs-title.function_, .hljs-title.class_ { color: var(--hl-title); }
.hljs-built_in, .hljs-params, .hljs-property, .hljs-tag { color: var(--hl-built); }
.hljs-addition { color: var(--hl-add); } .hljs-deletion { color: var(--hl-keyword); }
.hljs-emphasis { font-style: italic; } .hljs-strong { font-weight: 700; }
.math-block { margin: 1.25rem 0; overflow-x: auto; overflow-y: hidden; }
.task-list { list-style: none; padding-left: .25rem; }
.task { display: flex; gap: .5rem; align-items: flex-start; }
.task input { margin-top: .45rem; }
.task-body > p { margin: 0; }
li > p { margin: .2rem 0; }
.expandable { margin: 1rem 0; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); }
.expandable > summary { padding: .6rem 1rem; cursor: pointer; font-weight: 600; }
.expandable-body { padding: 0 1rem .5rem; }
.tabs { margin: 1.25rem 0; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); }
.tabs [role="tablist"] { display: flex; flex-wrap: wrap; border-bottom: 1px solid var(--border); background: var(--panel); border-radius: 8px 8px 0 0; }
.tabs [role="tab"] { font: inherit; padding: .5rem 1rem; border: 0; border-bottom: 2px solid transparent; background: none; color: var(--muted); cursor: pointer; }
.tabs [role="tab"][aria-selected="true"] { color: var(--fg); border-bottom-color: var(--link); font-weight: 600; }
.tabs [role="tabpanel"] { padding: .25rem 1rem; }
.no-js .tabs [role="tablist"] { display: none; }
.no-js .tabs [role="tabpanel"][hidden] { display: block; }
.no-js .tabs [role="tabpanel"]::before { content: attr(data-title); display: block; font-weight: 700; margin-top: .75rem; }
.stepper { list-style: none; counter-reset: step; padding: 0; margin: 1.25rem 0; }
.step { position: relative; counter-increment: step; padding: 0 0 .75rem 2.75rem; border-left: 2px solid var(--border); margin-left: .9rem; }
.step::before { content: counter(step); position: absolute; left: -1rem; top: 0; width: 1.9rem; height: 1.9rem; border-radius: 50%; background: var(--accent-bg); color: var(--link); font-weight: 700; text-align: center; line-height: 1.9rem; }
.step:last-child { border-left-color: transparent; }
.step-body { padding-left: .25rem; }
.step-body > :first-child { margin-top: 0; }
.columns { display: flex; flex-wrap: wrap; gap: 1.5rem; margin: 1.25rem 0; }
.column { flex: 1 1 0; min-width: 12rem; }
.valign-center { align-self: center; } .valign-bottom { align-self: flex-end; }
.table-wrap { overflow-x: auto; margin: 1.25rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { border: 1px solid var(--border); padding: .45rem .7rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td > p:first-child { margin-top: 0; } td > p:last-child { margin-bottom: 0; }
.tag { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .85em; margin-right: .25rem; }
.rating { color: #9a6700; letter-spacing: .1em; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; list-style: none; margin: 1.25rem 0; padding: 0; }
.cards-large { grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); }
.card { position: relative; border: 1px solid var(--border); border-radius: var(--radius-lg, 10px); overflow: hidden; background: var(--bg); }
.card-linked:hover { border-color: var(--link); }
.card-cover img { display: block; width: 100%; height: 8rem; object-fit: cover; } .card-cover img.fit-contain { object-fit: contain; } .card-cover img.fit-fill { object-fit: fill; }
.card-cover img.only-dark { display: none; }
:root[data-theme="dark"] .card-cover img.only-dark { display: block; } :root[data-theme="dark"] .card-cover img.only-light { display: none; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) .card-cover img.only-dark { display: block; } :root:not([data-theme="light"]) .card-cover img.only-light { display: none; } }
.card-body { padding: .75rem 1rem; }
.card-field-title { font-size: .75rem; color: var(--muted); text-transform: uppercase; }
.card-field > p { margin: .2rem 0; }
.card-link { position: absolute; inset: 0; }
.card-link:focus-visible { outline-offset: -3px; }
.file-block, .embed, .content-ref, .unsupported-block, .prompt { display: flex; gap: .75rem; align-items: center; margin: 1rem 0; padding: .75rem 1rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); }
.file-info { display: flex; flex-direction: column; }
.file-meta, .embed-host { font-size: .85rem; color: var(--muted); }
.embed { flex-direction: column; align-items: flex-start; gap: .1rem; overflow-wrap: anywhere; }
.content-ref { text-decoration: none; color: var(--fg); font-weight: 600; }
.content-ref:hover { border-color: var(--link); }
.prompt { flex-direction: column; align-items: stretch; }
.unsupported-block { border-style: dashed; color: var(--muted); background: var(--panel); }
.unsupported-inline { border: 1px dashed var(--border); border-radius: 4px; padding: 0 .25rem; color: var(--muted); }
.broken-link { text-decoration: underline dotted; }
.annotation { position: relative; }
.annotation-text { text-decoration: underline dotted; cursor: help; }
.annotation-body { display: none; position: absolute; left: 0; top: 1.6em; z-index: 3; width: max-content; max-width: 20rem; padding: .5rem .75rem; border: 1px solid var(--border); border-radius: var(--radius-lg, 8px); background: var(--bg); font-size: .9rem; }
.annotation:hover .annotation-body, .annotation-text:focus + .annotation-body { display: block; }
.button { display: inline-block; padding: .3rem .9rem; border-radius: var(--radius, 6px); text-decoration: none; font-weight: 600; border: 1px solid var(--link); }
.button-primary { background: var(--link); color: var(--bg); }
.button-secondary { color: var(--link); }
.mention { font-weight: 600; }
.icon { color: var(--muted); }
.expression { color: var(--muted); }
.update { border-left: 3px solid var(--border); padding-left: 1rem; margin: 1.5rem 0; }
.update-meta { font-size: .875rem; color: var(--muted); }
.search-results { list-style: none; padding: 0; }
.search-results li { margin: 0 0 1rem; }
.search-results .where { font-size: .85rem; color: var(--muted); }
.not-found { padding: 3rem 0; }
.api-operation, .api-schemas { margin: 1.5rem 0; padding: 1rem 1.25rem; border: 1px solid var(--border); border-radius: 8px; }
.api-title { margin-top: 0; }
.api-endpoint { font-size: .95rem; }
.api-method { display: inline-block; padding: .1rem .5rem; border-radius: 4px; font-weight: 700; font-size: .8rem; background: var(--link); color: var(--bg); }
.api-type, .api-constraints { color: var(--muted); font-size: .875rem; }
.api-required, .api-deprecated { font-size: .75rem; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
.api-properties, .api-responses { list-style: none; padding-left: 0; }
.api-properties .api-properties { padding-left: 1rem; border-left: 2px solid var(--border); }
.api-property, .api-response { padding: .4rem 0; border-top: 1px solid var(--border); }
.api-property p, .api-response p, td .api-description p { margin: .25rem 0; }
@media print { .site-header, .sidebar, .toc, .toc-inline, .pagination, .skip-link { display: none; } .layout { display: block; } }
`;
