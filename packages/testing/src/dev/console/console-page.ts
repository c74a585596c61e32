import { CONSOLE_SCRIPT } from './console-script.js';
import { CONSOLE_STYLE } from './console-style.js';

// The console's one page: HTML whose style and script are inline under the response's nonce, so it loads nothing
// else (it works offline) and the Content-Security-Policy can refuse everything not of the page. It holds no
// value of the run: the connector's outline, the transcript and the token's use come from script at load time.

/**
 * The page, with its style and script allowed by `nonce`.
 *
 * @internal
 */
export function consolePage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connector dev console</title>
<style nonce="${nonce}">${CONSOLE_STYLE}</style>
</head>
<body>
<header>
  <h1>Dev console <span id="connector-name"></span></h1>
  <p id="status" role="status" aria-live="polite">Loading…</p>
</header>
<main>
  <section aria-labelledby="config-title">
    <h2 id="config-title">1. Configuration and initialize</h2>
    <form id="config-form" novalidate>
      <div id="config-fields"></div>
      <button type="submit" id="initialize">Initialize</button>
    </form>
  </section>
  <section aria-labelledby="operations-title">
    <h2 id="operations-title">2. Call an operation</h2>
    <form id="call-form" novalidate>
      <label for="operation">Operation</label>
      <select id="operation" name="operation"></select>
      <div id="operation-fields"></div>
      <button type="submit" id="call">Call</button>
    </form>
    <h3 class="visually-hidden" id="platform-title">As the platform would</h3>
    <div class="actions" role="group" aria-labelledby="platform-title">
      <button type="button" class="secondary" id="replay">Replay last call</button>
      <button type="button" class="secondary" id="expire">Expire session</button>
      <button type="button" class="secondary" id="rate-limit">Rate-limit next call</button>
      <button type="button" class="secondary" id="cleanup">Clean up</button>
    </div>
  </section>
  <section aria-labelledby="save-title">
    <h2 id="save-title">3. Save as a test</h2>
    <form id="save-form" novalidate>
      <label for="save-name">Test name <span class="hint">(optional)</span></label>
      <input id="save-name" name="save-name" autocomplete="off" placeholder="lists my notes">
      <button type="submit" id="save">Save cassette and test</button>
    </form>
    <p id="save-result" role="status" aria-live="polite"></p>
  </section>
  <section id="transcript-section" aria-labelledby="transcript-title">
    <h2 id="transcript-title">Transcript <span class="hint">(secrets masked)</span></h2>
    <ol id="transcript"></ol>
    <p id="announce" class="visually-hidden" aria-live="polite"></p>
  </section>
</main>
<script nonce="${nonce}">${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
}
