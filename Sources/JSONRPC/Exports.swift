// Re-exports the JSON module so `import JSONRPC` gives users JSONValue, the parser and the writer.
@_exported import JSON
