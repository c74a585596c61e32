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
    void window.mermaid.run({ nodes: diagrams });
  };
  document.head.append(loader);
})();
