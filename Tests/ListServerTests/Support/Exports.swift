// Re-exports the shared protocol-test support (TestClient, ProtocolSpec, SchemaValidator) to every file of this target.
@_exported import ListdTestSupport
