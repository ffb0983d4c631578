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

/** Runs before the first paint (inline, allowed by its hash in the CSP): the remembered theme. */
export const THEME_BOOTSTRAP = `try{var t=localStorage.getItem('bindery-theme');if(t==='dark'||t==='light')document.documentElement.dataset.theme=t}catch(e){}`;
