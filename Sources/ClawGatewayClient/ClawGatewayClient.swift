// ClawGatewayClient: the async, Sendable client of the OpenClaw Gateway. One import gives the whole
// API: the JSON values it sends and receives come from ClawJSON, re-exported here.
@_exported import ClawJSON
import ClawProtocol
import ClawState
import ClawSession

/// A credential that never shows itself: printing, interpolating or dumping one gives `<redacted>`.
public typealias Secret = ClawState.Secret
/// Who the client says it is to the gateway (`connect.params.client`).
public typealias ClientIdentity = ConnectRequest.Client
/// Why a connection could not be made or was lost (the case of `GatewayClientError.connection`).
public typealias GatewayError = ClawSession.GatewayError
/// Why the gateway refused to let us in (`GatewayError.authenticationFailed`).
public typealias AuthFailure = ClawSession.AuthFailure
