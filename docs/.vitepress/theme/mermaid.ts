// Renders the guides' ```mermaid blocks (placeholders written by scripts/docs-site/markdown.mjs) in the browser,
// with the mermaid build the site serves as /mermaid.min.js, loaded only on a page that has a diagram.
//
// A diagram is fitted to the text column, where a long sequence diagram's labels get small (the lifecycle's were
// about 6 px): "Open at full size" (or a click on the diagram) shows it at its own size over the page, scrolling
// both ways on a phone, and Escape or a click closes it.
import { withBase } from 'vitepress';

interface Mermaid {
  initialize(config: { startOnLoad: boolean; theme: string }): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

let loading: Promise<Mermaid> | undefined;

function loadMermaid(): Promise<Mermaid> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = withBase('/mermaid.min.js');
    script.onload = () => resolve((window as unknown as { mermaid: Mermaid }).mermaid);
    script.onerror = () => reject(new Error('mermaid.min.js did not load'));
    document.head.append(script);
  });
  return loading;
}

function openFullSize(svg: string, title: string): void {
  const dialog = document.createElement('dialog');
  dialog.className = 'diagram-dialog';
  dialog.setAttribute('aria-label', title);
  dialog.innerHTML = `<button class="diagram-close" type="button" aria-label="Close">×</button><div class="diagram-full">${svg}</div>`;
  const full = dialog.querySelector('svg');
  if (full) {
    // At its own size: mermaid caps the width at the column's; the viewBox says what the diagram needs.
    const width = full.viewBox.baseVal?.width;
    full.removeAttribute('style');
    if (width) full.setAttribute('width', String(Math.ceil(width)));
    full.removeAttribute('height');
  }
  dialog.addEventListener('close', () => dialog.remove());
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog || (event.target as Element).closest('.diagram-close'))
      dialog.close();
  });
  document.body.append(dialog);
  dialog.showModal();
}

let counter = 0;

/** Replaces each placeholder on the page with its diagram. */
export async function renderDiagrams(): Promise<void> {
  const blocks = [
    ...document.querySelectorAll<HTMLElement>('.mermaid-diagram:not([data-rendered])'),
  ];
  if (blocks.length === 0) return;
  const mermaid = await loadMermaid();
  const dark = document.documentElement.classList.contains('dark');
  mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default' });
  for (const block of blocks) {
    const text = block.querySelector('.mermaid-source')?.textContent ?? '';
    block.dataset.rendered = '';
    const { svg } = await mermaid.render(`mermaid-${++counter}`, text);
    const heading = block.previousElementSibling?.closest('h1, h2, h3')?.textContent ?? 'Diagram';
    block.innerHTML =
      `<div class="mermaid-svg" role="button" tabindex="0" title="Open at full size">${svg}</div>` +
      '<button class="diagram-open" type="button">Open at full size ⤢</button>';
    const open = () => openFullSize(svg, heading);
    block.querySelector('.diagram-open')?.addEventListener('click', open);
    const figure = block.querySelector<HTMLElement>('.mermaid-svg');
    figure?.addEventListener('click', open);
    figure?.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') open();
    });
  }
}
