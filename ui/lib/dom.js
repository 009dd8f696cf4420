// Building the page from data written by third parties: text only ever goes in as text, never
// as markup.
function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// Replaces what a region shows; it stops being busy once it has its content.
function fill(region, ...children) {
  region.replaceChildren();
  append(region, children);
  region.removeAttribute('aria-busy');
  return region;
}

// A tool's error as people read it: its message, and its code for support.
function errorBox(title, error) {
  const message = (error && error.message) || 'Erro desconhecido.';
  return h(
    'div',
    { class: 'state state-error', role: 'alert' },
    h('strong', {}, title),
    h('p', {}, message),
    error && error.code ? h('p', { class: 'muted' }, `Código: ${error.code}`) : null,
  );
}

function emptyBox(text) {
  return h('p', { class: 'state state-empty' }, text);
}

// A key figure: its label above, its value below.
function figure(label, value, extraClass) {
  return h('div', { class: `figure ${extraClass || ''}` }, h('dt', {}, label), h('dd', {}, value));
}

// A status pill; the tone only colours it, the text carries the meaning.
function pill(text, tone) {
  return h('span', { class: `pill pill-${tone || 'neutral'}` }, text);
}

// Tells screen readers (and people) what just happened after an action.
function announce(text, tone) {
  const region = document.getElementById('announce');
  if (!region) return;
  region.className = `announce announce-${tone || 'info'}`;
  region.textContent = text;
}
