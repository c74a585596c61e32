// The console page's script, plain browser JavaScript in a string (the page is served whole, with no file to
// fetch): it builds the forms from the connector's outline, sends the actions with the run's token in a header,
// and renders the transcript it long-polls for, always as text (`textContent`), never as markup.

/** @internal */
export const CONSOLE_SCRIPT = `
'use strict';
const token = new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);
let outline;
let seq = 0;

async function api(path, body) {
  const init = { method: body === undefined ? 'GET' : 'POST', headers: { 'x-console-token': token } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.message || 'The console refused');
    error.data = data;
    throw error;
  }
  return data;
}

function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else if (value !== undefined && value !== false) node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children || []) if (child) node.append(child);
  return node;
}

function say(text, bad) {
  const status = $('status');
  status.textContent = text;
  status.className = bad ? 'error' : '';
}

function fieldId(prefix, key) {
  return prefix + '-' + key.replace(/[^A-Za-z0-9_-]/g, '_');
}

function input(id, kind, options) {
  const o = options || {};
  if (kind === 'DROP_DOWN' && o.values) {
    const select = el('select', { id, name: o.name, required: o.required });
    if (!o.required) select.append(el('option', { value: '', text: '(none)' }));
    for (const value of o.values) select.append(el('option', { value, text: value }));
    if (o.value !== undefined) select.value = o.value;
    return select;
  }
  if (kind === 'JSON' || kind === 'TEXTAREA') {
    const area = el('textarea', { id, name: o.name, required: o.required, spellcheck: 'false', rows: o.rows || 4 });
    area.value = o.value || '';
    return area;
  }
  const types = { PASSWORD: 'password', URL: 'url', NUMERIC: 'number', EMAIL: 'email', CHECKBOX: 'checkbox' };
  const type = types[kind] || 'text';
  const field = el('input', { id, name: o.name, type, required: o.required && type !== 'checkbox',
    autocomplete: type === 'password' ? 'new-password' : 'off', placeholder: o.placeholder });
  if (type === 'checkbox') field.checked = o.value === 'true';
  else if (o.value !== undefined) field.value = o.value;
  return field;
}

function labelled(id, text, hint, control) {
  const error = el('p', { id: id + '-error', className: 'error field-error' });
  control.setAttribute('aria-describedby', id + '-error');
  return el('div', {}, [
    el('label', { for: id }, [text, hint ? el('span', { id: id + '-hint', className: 'hint', text: ' ' + hint }) : null]),
    control,
    error,
  ]);
}

function renderConfig(presets, kept) {
  const box = $('config-fields');
  const old = {};
  for (const node of box.querySelectorAll('[name]')) old[node.name] = node.type === 'checkbox' ? String(node.checked) : node.value;
  box.replaceChildren();
  for (const field of outline.config) {
    const id = fieldId('config', field.key);
    const secret = field.fieldType === 'PASSWORD';
    const value = old[field.key] !== undefined ? old[field.key] : secret ? '' : presets[field.key] !== undefined ? presets[field.key] : field.defaultValue;
    const hint = (field.required ? '(required' : '(optional') + (field.fieldType === 'JSON' ? ', JSON' : '') +
      (secret && kept.includes(field.key) ? ', leave empty to use the dev server’s' : '') + ')';
    box.append(labelled(id, field.key, hint, input(id, field.fieldType, { name: field.key, required: field.required && !(secret && kept.includes(field.key)), values: field.values, value })));
  }
}

function skeleton(schema, depth) {
  if (!schema || depth > 6) return null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf || schema.oneOf;
  if (choice) return skeleton(choice.find((item) => item.type !== 'null') || choice[0], depth + 1);
  switch (schema.type) {
    case 'object': {
      const result = {};
      for (const key of schema.required || []) result[key] = skeleton((schema.properties || {})[key], depth + 1);
      return result;
    }
    case 'array': return [];
    case 'string': return '';
    case 'number': case 'integer': return 0;
    case 'boolean': return false;
    default: return null;
  }
}

function schemaFields(prefix, schema) {
  const nodes = [];
  const properties = (schema && schema.properties) || {};
  const required = (schema && schema.required) || [];
  for (const [key, property] of Object.entries(properties)) {
    const id = fieldId(prefix, key);
    const kind = property.enum ? 'DROP_DOWN' : property.type === 'integer' || property.type === 'number' ? 'NUMERIC' : 'TEXT';
    const hint = '(' + (required.includes(key) ? 'required' : 'optional') + (property.description ? ': ' + property.description : '') + ')';
    nodes.push(labelled(id, key, hint, input(id, kind, { name: prefix + ':' + key, required: required.includes(key), values: property.enum })));
  }
  return nodes;
}

function renderOperation() {
  const box = $('operation-fields');
  box.replaceChildren();
  const operation = outline.operations.find((item) => item.name === $('operation').value);
  if (!operation) return;
  box.append(el('p', { className: 'hint', text: operation.method + ' ' + operation.path + (operation.catalog ? ' · the platform’s ' + operation.catalog : '') }));
  box.append(...schemaFields('params', operation.params), ...schemaFields('query', operation.query));
  if (operation.upload) {
    box.append(labelled('upload-file', operation.upload.file, '(the file to upload)', el('input', { id: 'upload-file', type: 'file', required: true })));
    for (const name of operation.upload.fields) box.append(labelled(fieldId('upload', name), name, '(text field)', input(fieldId('upload', name), 'TEXT', { name: 'upload:' + name })));
  } else if (operation.body) {
    box.append(labelled('call-body', 'Body', '(JSON, checked by the connector)', input('call-body', 'JSON', { name: 'body', rows: 8, value: JSON.stringify(skeleton(operation.body, 0), null, 2) })));
  }
}

function renderOperations() {
  const select = $('operation');
  const chosen = select.value;
  // What was typed survives a reload of the connector when its form still has the field.
  const typed = {};
  for (const node of $('operation-fields').querySelectorAll('[name]')) typed[node.name] = node.value;
  select.replaceChildren();
  for (const operation of outline.operations)
    select.append(el('option', { value: operation.name, text: operation.name + ' — ' + operation.method + ' ' + operation.path }));
  const kept = outline.operations.some((item) => item.name === chosen);
  if (kept) select.value = chosen;
  renderOperation();
  if (!kept) return;
  for (const node of $('operation-fields').querySelectorAll('[name]'))
    if (typed[node.name] !== undefined && node.type !== 'file') node.value = typed[node.name];
}

async function loadOutline() {
  const data = await api('/api/outline');
  outline = data.outline;
  $('connector-name').textContent = outline.name + ' ' + outline.version;
  renderConfig(data.presets, data.keptSecrets);
  renderOperations();
}

function showFieldErrors(prefix, fields) {
  for (const node of document.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
  for (const node of document.querySelectorAll('.field-error')) node.textContent = '';
  let first;
  for (const [key, message] of Object.entries(fields || {})) {
    const id = fieldId(prefix, key);
    const control = $(id);
    if (!control) continue;
    control.setAttribute('aria-invalid', 'true');
    $(id + '-error').textContent = message;
    first = first || control;
  }
  if (first) first.focus();
}

async function act(button, work) {
  const buttons = document.querySelectorAll('button');
  const focused = document.activeElement;
  for (const item of buttons) item.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  try {
    await work();
  } catch (error) {
    say(error.message, true);
  } finally {
    for (const item of buttons) item.disabled = false;
    document.body.removeAttribute('aria-busy');
    // A disabled button loses the keyboard's place: give it back.
    if (focused === button && document.activeElement !== button && button) button.focus();
  }
}

function formValues(form, prefix) {
  const values = {};
  for (const node of form.querySelectorAll('[name]')) {
    if (!node.name.startsWith(prefix)) continue;
    values[node.name.slice(prefix.length)] = node.type === 'checkbox' ? String(node.checked) : node.value;
  }
  return values;
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

$('config-form').addEventListener('submit', (event) => {
  event.preventDefault();
  act(event.submitter, async () => {
    for (const node of document.querySelectorAll('#config-fields textarea')) {
      if (node.value.trim() === '') continue;
      try { JSON.parse(node.value); } catch { showFieldErrors('config', { [node.name]: 'Not JSON' }); throw new Error('Fix the fields marked'); }
    }
    try {
      await api('/api/initialize', { config: formValues($('config-form'), '') });
      showFieldErrors('config', {});
      say('Initialized');
    } catch (error) {
      if (error.data && error.data.fields) showFieldErrors('config', error.data.fields);
      throw error;
    }
  });
});

$('operation').addEventListener('change', renderOperation);

$('call-form').addEventListener('submit', (event) => {
  event.preventDefault();
  act(event.submitter, async () => {
    const form = $('call-form');
    const body = { operation: $('operation').value, params: formValues(form, 'params:'), query: formValues(form, 'query:') };
    const text = $('call-body');
    if (text) {
      try { if (text.value.trim() !== '') JSON.parse(text.value); } catch { showFieldErrors('call', { body: 'Not JSON' }); throw new Error('The body is not JSON'); }
      body.body = text.value;
    }
    const file = $('upload-file');
    if (file && file.files[0]) {
      body.upload = { fileName: file.files[0].name, contentType: file.files[0].type, base64: await readFile(file.files[0]), fields: formValues(form, 'upload:') };
    }
    await api('/api/call', body);
    say('Called ' + body.operation);
  });
});

for (const [id, path, done] of [
  ['replay', '/api/replay', 'Replayed the last call'],
  ['expire', '/api/expire', 'The session will expire'],
  ['rate-limit', '/api/rate-limit', 'The next call will be rate limited'],
  ['cleanup', '/api/cleanup', 'Cleaned up'],
]) {
  $(id).addEventListener('click', (event) => act(event.target, async () => { await api(path, {}); say(done); }));
}

$('save-form').addEventListener('submit', (event) => {
  event.preventDefault();
  act(event.submitter, async () => {
    const files = await api('/api/save', { name: $('save-name').value });
    $('save-result').textContent = 'Saved ' + files.test + ' and ' + files.cassette;
  });
});

function pretty(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

function renderCall(call) {
  return el('li', { className: 'line', text: '↳ ' + call.method + ' ' + call.url + ' → ' + (call.status || call.code || '') + ' (' + call.ms + ' ms)' + (call.attempt ? ' retry ' + call.attempt : '') });
}

function renderEvent(event) {
  const list = $('transcript');
  if (event.type === 'reload') {
    list.append(el('li', {}, [el('p', { className: 'note', text: 'Reloaded the connector (' + event.files.length + ' files, load ' + event.generation + ')' })]));
    loadOutline().catch((error) => say(error.message, true));
    return;
  }
  if (event.type === 'notice') {
    list.append(el('li', {}, [el('p', { className: event.level === 'error' ? 'error' : 'note', text: event.text })]));
    return;
  }
  if (event.type === 'end-system') {
    list.append(el('li', {}, [el('p', { className: 'note', text: 'End-system call outside the console' }), el('ul', { className: 'calls' }, [renderCall(event.call)])]));
    return;
  }
  const entry = event.entry;
  if (entry.type === 'wait') {
    list.append(el('li', {}, [el('p', { className: 'note', text: 'Rate limited: the platform waited ' + entry.waitMs + ' ms as asked' })]));
    return;
  }
  const ok = entry.response.status < 400;
  const item = el('li', { 'data-step': entry.step }, [
    entry.note ? el('p', { className: 'note', text: entry.note }) : null,
    el('p', { className: 'line', text: '→ ' + entry.request.method + ' ' + entry.request.url }),
    entry.request.body ? el('details', {}, [el('summary', { text: 'Request body' }), el('pre', { text: pretty(entry.request.body) })]) : null,
    entry.endSystem.length ? el('ul', { className: 'calls', 'aria-label': 'End-system calls' }, entry.endSystem.map(renderCall)) : null,
    el('p', { className: 'line ' + (ok ? 'status-ok' : 'status-bad'), text: '← ' + entry.response.status + ' in ' + Math.round(entry.durationMs) + ' ms' }),
    entry.response.body ? el('pre', { text: pretty(entry.response.body) }) : null,
    ...entry.problems.map((problem) => el('p', { className: 'error', text: '✗ contract: ' + problem })),
  ]);
  list.append(item);
  $('announce').textContent = entry.request.method + ' ' + entry.request.url.split('?')[0] + ': ' + entry.response.status;
}

async function poll() {
  for (;;) {
    try {
      const data = await api('/api/events?after=' + seq);
      for (const event of data.events) {
        seq = Math.max(seq, event.seq);
        renderEvent(event);
      }
    } catch (error) {
      say('The dev server does not answer: ' + error.message, true);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

loadOutline().then(() => say('Ready: fill in the configuration, then initialize'), (error) => say(error.message, true));
poll();
`;
