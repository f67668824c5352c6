// JSONRPC: JSON-RPC 2.0 over byte streams with LSP framing (filled in by issue 3).
