// Renders the guides' ```mermaid blocks on the API reference site, offline: loads the mermaid build that
// `pnpm run docs` copies beside this file, then replaces each highlighted block with its diagram.
(() => {
  const script = document.currentScript;
  const blocks = [...document.querySelectorAll('pre > code.mermaid')];
  if (blocks.length === 0 || script === null) return;
  const loader = document.createElement('script');
  loader.src = new URL('mermaid.min.js', script.src).href;
  loader.onload = () => {
    const dark = document.documentElement.dataset.theme === 'dark';
    window.mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default' });
    const diagrams = blocks.map((code) => {
      // The highlighter wrote one <br> per line; turn them back into newlines before reading the text.
      const source = document.createElement('div');
      source.innerHTML = code.innerHTML.replace(/<br\s*\/?>/g, '\n');
      const diagram = document.createElement('div');
      diagram.className = 'mermaid';
      diagram.textContent = source.textContent;
      code.parentElement.replaceWith(diagram);
      return diagram;
    });
    // A diagram is fitted to the text column, where a long sequence diagram's labels get small: a click shows
    // it at its own size, scrolling sideways (custom.css), and another click fits it again.
    void window.mermaid.run({ nodes: diagrams }).then(() => {
      for (const diagram of diagrams) {
        const svg = diagram.querySelector('svg');
        if (svg === null) continue;
        const fullWidth = svg.style.maxWidth;
        diagram.title = 'Click to see the diagram at full size';
        diagram.addEventListener('click', () => {
          const zoomed = diagram.classList.toggle('zoomed');
          diagram.title = zoomed ? 'Click to fit the diagram' : 'Click to see the diagram at full size';
          svg.style.width = zoomed ? fullWidth : '';
          svg.style.maxWidth = zoomed ? 'none' : fullWidth;
        });
      }
    });
  };
  document.head.append(loader);
})();
