// The view's half of the MCP Apps conversation (JSON-RPC 2.0 over postMessage with the host).
// Data reaches the view only through the host: the tool's input and result, and the tools and
// resources the host proxies to the server. The view never fetches anything itself.
const bridge = (() => {
  const PROTOCOL_VERSION = '2026-01-26';
  const pending = new Map();
  const listeners = {};
  let nextId = 1;
  let hostContext = {};

  function post(message) {
    window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  }

  function request(method, params) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });
  }

  function notify(method, params) {
    post({ method, params });
  }

  function emit(event, payload) {
    for (const listener of listeners[event] || []) listener(payload);
  }

  function on(event, listener) {
    (listeners[event] = listeners[event] || []).push(listener);
  }

  // Requests the host may send the view: answered so the host never waits.
  function answer(message) {
    if (message.method === 'ui/resource-teardown') emit('teardown', message.params || {});
    post({ id: message.id, result: {} });
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message || 'O anfitrião recusou o pedido.'));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) return answer(message);
    const params = message.params || {};
    switch (message.method) {
      case 'ui/notifications/tool-input':
        return emit('input', params.arguments || {});
      case 'ui/notifications/tool-result':
        return emit('result', readResult(params));
      case 'ui/notifications/tool-cancelled':
        return emit('cancelled', params);
      case 'ui/notifications/host-context-changed':
        hostContext = { ...hostContext, ...params };
        applyHostContext(hostContext);
        return emit('context', hostContext);
    }
  });

  // A tool result is one text item carrying the endpoint's JSON; an error result carries
  // `{ error: { code, message, details } }`. Returns { ok, data, error }.
  function readResult(result) {
    const text = (result && result.content || []).find((item) => item.type === 'text');
    let body = null;
    try {
      body = text ? JSON.parse(text.text) : result.structuredContent || null;
    } catch (_) {
      body = null;
    }
    if (result && result.isError) {
      const error = (body && body.error) || { message: text ? text.text : 'A ferramenta falhou.' };
      return { ok: false, data: null, error };
    }
    if (body === null) return { ok: false, data: null, error: { message: 'Resposta sem conteúdo legível.' } };
    return { ok: true, data: body, error: null };
  }

  // Calls a tool through the host, which applies its own confirmations as for any call.
  async function callTool(name, args) {
    try {
      return readResult(await request('tools/call', { name, arguments: args }));
    } catch (error) {
      return { ok: false, data: null, error: { message: error.message } };
    }
  }

  // The host's theme and variables on the document; the stylesheet falls back to its own.
  function applyHostContext(context) {
    const root = document.documentElement;
    if (context.theme === 'light' || context.theme === 'dark') {
      root.dataset.theme = context.theme;
      root.style.colorScheme = context.theme;
    }
    const variables = (context.styles && context.styles.variables) || {};
    for (const [name, value] of Object.entries(variables)) {
      if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value);
    }
  }

  // Tells the host the size the content needs, whenever it changes.
  function watchSize() {
    let last = '';
    const send = () => {
      // The document's own box: scrollHeight never drops below the frame's height, so a view
      // that got shorter could never say so.
      const box = document.documentElement.getBoundingClientRect();
      const width = Math.ceil(box.width);
      const height = Math.ceil(box.height);
      const key = `${width}x${height}`;
      if (key === last) return;
      last = key;
      notify('ui/notifications/size-changed', { width, height });
    };
    new ResizeObserver(send).observe(document.documentElement);
    send();
  }

  async function start(appInfo) {
    const result = await request('ui/initialize', {
      appInfo,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    });
    hostContext = (result && result.hostContext) || {};
    applyHostContext(hostContext);
    emit('context', hostContext);
    notify('ui/notifications/initialized', {});
    watchSize();
    return hostContext;
  }

  return {
    start,
    on,
    callTool,
    readResource: (uri) => request('resources/read', { uri }),
    openLink: (url) => request('ui/open-link', { url }),
    context: () => hostContext,
  };
})();
