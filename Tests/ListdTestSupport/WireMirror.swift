// The mirror the protocol tests check the mirror property with: ListClient's public Mirror.
import ListClient

/// A client-side copy of one list kept current from wire changesets alone (`ListClient.Mirror`).
public typealias WireMirror = Mirror
