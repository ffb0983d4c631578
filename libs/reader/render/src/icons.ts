import type { Element } from 'hast';
import { el } from './hast';

/**
 * GitBook names icons by their Font Awesome name (`rocket`, `users-medical`, `circle-check`). The reader downloads no
 * icon font: a name it knows is drawn with a Unicode symbol, any other with a neutral glyph; either way the icon is an
 * image labelled with its name in words ("users medical"), so screen readers say what it is.
 */
const GLYPHS: Record<string, string> = {
  rocket: '🚀',
  'rocket-launch': '🚀',
  bolt: '⚡',
  'bolt-lightning': '⚡',
  star: '★',
  heart: '♥',
  check: '✓',
  'circle-check': '✓',
  'square-check': '✓',
  xmark: '✕',
  'circle-xmark': '✕',
  'circle-info': 'ℹ',
  info: 'ℹ',
  'circle-question': '?',
  question: '?',
  'triangle-exclamation': '⚠',
  'circle-exclamation': '!',
  exclamation: '!',
  lightbulb: '💡',
  book: '📖',
  'book-open': '📖',
  'book-open-cover': '📖',
  file: '📄',
  'file-lines': '📄',
  folder: '📁',
  'folder-open': '📂',
  code: '</>',
  terminal: '>_',
  gear: '⚙',
  gears: '⚙',
  wrench: '🔧',
  lock: '🔒',
  'lock-open': '🔓',
  key: '🔑',
  shield: '🛡',
  'shield-check': '🛡',
  user: '👤',
  users: '👥',
  'users-medical': '👥',
  'user-group': '👥',
  globe: '🌐',
  link: '🔗',
  'arrow-right': '→',
  'arrow-left': '←',
  'arrow-up': '↑',
  'arrow-down': '↓',
  'arrow-up-right': '↗',
  'arrow-up-right-from-square': '↗',
  'chevron-right': '›',
  'chevron-left': '‹',
  plus: '+',
  minus: '−',
  magnifying: '🔍',
  'magnifying-glass': '🔍',
  envelope: '✉',
  bell: '🔔',
  calendar: '📅',
  clock: '🕒',
  flag: '⚑',
  tag: '🏷',
  cloud: '☁',
  database: '🗄',
  server: '🖥',
  laptop: '💻',
  'laptop-code': '💻',
  mobile: '📱',
  image: '🖼',
  video: '🎬',
  play: '▶',
  pen: '✎',
  pencil: '✎',
  'pen-to-square': '✎',
  trash: '🗑',
  download: '⬇',
  upload: '⬆',
  leaf: '🍃',
  'graduation-cap': '🎓',
  'chart-line': '📈',
  'chart-simple': '📊',
  sparkles: '✨',
  robot: '🤖',
  puzzle: '🧩',
  'puzzle-piece': '🧩',
  github: 'GH',
  house: '⌂',
  home: '⌂',
  'list-check': '☑',
  list: '☰',
  bars: '☰',
  palette: '🎨',
  'message-bot': '🤖',
  comment: '💬',
  comments: '💬',
  'circle-play': '▶',
  handshake: '🤝',
  'money-bill': '💵',
  'credit-card': '💳',
};

/** `users-medical` → `users medical`. */
export function iconLabel(name: string): string {
  return name.replace(/^fa-/, '').replace(/[-_]+/g, ' ').trim() || 'icon';
}

export function iconGlyph(name: string): string {
  return GLYPHS[name.replace(/^fa-/, '')] ?? '◆';
}

/** An icon as an image labelled with its name; `decorative` icons (next to a text saying the same) are hidden from assistive technology. */
export function iconElement(name: string, classes: string[] = [], decorative = false): Element {
  const label = decorative ? { ariaHidden: 'true' } : { role: 'img', ariaLabel: iconLabel(name) };
  return el('span', { className: ['icon', ...classes], dataIcon: name, ...label }, iconGlyph(name));
}
