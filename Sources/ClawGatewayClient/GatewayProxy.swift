@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState

/// Whether the connection goes through a forward proxy (an HTTP proxy's `CONNECT`, or SOCKS5), as the
/// `openclaw` command's does.
public enum GatewayProxy: Sendable, Equatable {
    /// What the environment says, as curl and Go read it: `HTTPS_PROXY` for `wss://`, `HTTP_PROXY` for
    /// `ws://`, `ALL_PROXY`, `NO_PROXY` (lower-case names first); a gateway on this machine (loopback) is
    /// never proxied. For a configuration from `GatewayConfiguration.official()`, OpenClaw's own
    /// `proxy.enabled`/`proxy.proxyUrl`/`OPENCLAW_PROXY_URL`/`proxy.loopbackMode` settings win when enabled.
    case automatic
    /// No proxy, whatever the environment says.
    case direct
    /// This proxy: `http://[user:password@]host:port`, `https://…` (TLS to the proxy, checked against the
    /// system's store), `socks5://…` (this side resolves the gateway's
    /// name) or `socks5h://…` (the proxy resolves it). A secret, since its user info may hold a password.
    /// The scheme is required: a URL without one (`proxy.corp:3128`), another scheme or no host fails the
    /// connect with ``GatewayClientError/Code/invalidConfiguration`` (``ConfigurationProblem/proxy``),
    /// which is not retryable, before any socket is opened.
    case url(Secret)

    /// The proxy for a connection to `url`, or nil to connect directly.
    func endpoint(for url: WebSocketURL, environment: Environment) throws(GatewayClientError) -> ProxyEndpoint? {
        switch self {
        case .direct:
            return nil
        case .automatic:
            do { return try ProxySelection.fromEnvironment(url: url, environment: environment) } catch {
                throw GatewayClientError(error)
            }
        case .url(let secret):
            do throws(ProxyURLProblem) {
                return try ProxyEndpoint.parse(secret.stored.value, source: "GatewayConfiguration.proxy", schemeRequired: true)
            } catch {
                throw GatewayClientError(configuration: .proxy, "the proxy URL of GatewayConfiguration.proxy \(error)")
            }
        }
    }
}
