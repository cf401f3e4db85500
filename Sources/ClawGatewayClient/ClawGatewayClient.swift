// ClawGatewayClient: the async, Sendable client of the OpenClaw Gateway. One import gives the whole
// API: the JSON values it sends and receives come from ClawJSON, re-exported here.
@_exported import ClawJSON
import ClawProtocol
import ClawState

/// A credential that never shows itself: printing, interpolating or dumping one gives `<redacted>`.
public typealias Secret = ClawState.Secret
/// Who the client says it is to the gateway (`connect.params.client`).
public typealias ClientIdentity = ConnectRequest.Client
