// The view's side of the host conversation: JSON-RPC 2.0 over postMessage.
function notifyHost(method, params) {
  window.parent.postMessage({ jsonrpc: "2.0", method: method, params: params }, "*");
}
