// What the build knows about itself. The Makefile's release builds set OPENCLAW_COMMIT in the
// environment; Package.swift turns it into a -D for this target only, so a new commit recompiles
// one C file instead of every Swift module.
#ifndef OPENCLAW_BUILD_INFO_H
#define OPENCLAW_BUILD_INFO_H

/// The git commit the binary was built from ("0123abcd…", "-dirty" appended for a modified
/// tree), or "" when unknown (a plain `swift build`).
const char *openclaw_build_commit(void);

#endif
