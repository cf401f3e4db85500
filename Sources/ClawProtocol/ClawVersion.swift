/// This package's one version: `openclaw version`, the hello's `client.version` of the CLI and the
/// library, the .deb and the tarball, checked against CHANGELOG.md's top section by `make check-api`.
package enum ClawVersion {
    package static let current = "0.2.0"
}
