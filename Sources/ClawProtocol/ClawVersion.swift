
/// This package's one version: `openclaw version`, the `client.version` of the CLI's and the library's
/// hello, the .deb and the tarball (the Makefile reads it here), and the version `make check-api`
/// holds against the last release (CHANGELOG.md's top section must name it too).
@_spi(Engine) public enum ClawVersion {
    @_spi(Engine) public static let current = "0.2.0"
}
