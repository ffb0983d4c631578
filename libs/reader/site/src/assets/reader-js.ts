/**
 * The page's only script (progressive enhancement: every page reads and navigates without it):
 * the remembered theme toggle, keyboard-usable tabs, copy buttons on code blocks.
 */
export const READER_JS = `(() => {
  'use strict';
  const root = document.documentElement;
  root.classList.remove('no-js');
  const KEY = 'bindery-theme';
  const dark = () => root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  const toggle = document.querySelector('.theme-toggle');
  const show = () => {
    if (!toggle) return;
    toggle.setAttribute('aria-pressed', String(dark()));
  };
  if (toggle) {
    toggle.addEventListener('click', () => {
      const next = dark() ? 'light' : 'dark';
      root.dataset.theme = next;
      try { localStorage.setItem(KEY, next); } catch (e) { /* storage refused: the choice lasts for the page */ }
      show();
    });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', show);
    show();
  }

  for (const list of document.querySelectorAll('[role="tablist"]')) {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const select = (tab, focus) => {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        const panel = document.getElementById(t.getAttribute('aria-controls'));
        if (panel) panel.hidden = !on;
      }
      if (focus) tab.focus();
    };
    list.addEventListener('click', (e) => {
      const tab = e.target.closest('[role="tab"]');
      if (tab) select(tab, false);
    });
    list.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(document.activeElement);
      if (i < 0) return;
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
  }

  // Phones: the page tree opens from the menu button over the page. While it is open the rest of the
  // page is inert (focus and assistive technologies stay inside), Tab wraps, Escape or the close
  // button closes it and gives focus back to the menu button; the current page is scrolled into view.
  const navToggle = document.querySelector('.nav-toggle');
  const nav = document.getElementById('site-nav');
  if (navToggle && nav) {
    const closeButton = nav.querySelector('.nav-close');
    const isOpen = () => root.classList.contains('nav-open');
    const others = () => {
      const list = [];
      for (let el = nav; el.parentElement && el !== document.body; el = el.parentElement) {
        for (const sibling of el.parentElement.children) if (sibling !== el && sibling.tagName !== 'SCRIPT') list.push(sibling);
      }
      return list;
    };
    const open = () => {
      root.classList.add('nav-open');
      navToggle.setAttribute('aria-expanded', 'true');
      const current = nav.querySelector(':scope > ul [aria-current="page"]');
      if (current) current.scrollIntoView({ block: 'center' });
      (current || closeButton || nav).focus();
      // after the focus has moved: the menu button it leaves becomes inert with the rest
      for (const el of others()) el.inert = true;
    };
    const close = (giveFocusBack) => {
      if (!isOpen()) return;
      root.classList.remove('nav-open');
      navToggle.setAttribute('aria-expanded', 'false');
      for (const el of others()) el.inert = false;
      if (giveFocusBack) navToggle.focus();
    };
    navToggle.addEventListener('click', () => (isOpen() ? close(true) : open()));
    if (closeButton) closeButton.addEventListener('click', () => close(true));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && isOpen()) {
        e.preventDefault();
        close(true);
      }
    });
    nav.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || !isOpen()) return;
      const focusable = [...nav.querySelectorAll('a[href], button, summary')].filter((el) => el.getClientRects().length > 0);
      if (!focusable.length) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    });
    nav.addEventListener('click', (e) => { if (e.target.closest('a[href]')) close(false); });
    matchMedia('(max-width: 48rem)').addEventListener('change', (m) => { if (!m.matches) close(false); });
  }
  for (const outline of document.querySelectorAll('.toc-inline')) {
    outline.addEventListener('click', (e) => { if (e.target.closest('a[href]')) outline.open = false; });
  }

  if (navigator.clipboard) {
    for (const figure of document.querySelectorAll('.code-block')) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy the code');
      button.addEventListener('click', () => {
        const code = figure.querySelector('code');
        navigator.clipboard.writeText(code ? code.innerText : '').then(() => {
          button.textContent = 'Copied';
          setTimeout(() => { button.textContent = 'Copy'; }, 1500);
        });
      });
      figure.appendChild(button);
    }
  }
})();
`;

/**
 * Runs before the first paint (inline, allowed by its hash in the CSP): the remembered theme (unless the
 * site fixes its theme: no toggle, `data-theme-fixed`; the choice is kept per origin, which many sites share), and the
 * end of `no-js` so that the phone layout with its menu is the first one drawn (no shift when the script comes).
 */
export const THEME_BOOTSTRAP = `document.documentElement.classList.remove('no-js');try{var d=document.documentElement,t=localStorage.getItem('bindery-theme');if(!d.hasAttribute('data-theme-fixed')&&(t==='dark'||t==='light'))d.dataset.theme=t}catch(e){}`;
