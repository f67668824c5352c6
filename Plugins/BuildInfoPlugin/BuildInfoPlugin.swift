// Runs script/build-info during the build so that the binaries know the commit they were built from.
import Foundation
import PackagePlugin

/// Generates `BuildCommit.swift` for the target it is applied to (BuildInfo).
///
/// A build command, not a prebuild one: SwiftPM does not rerun prebuild commands on incremental
/// builds. The command reruns whenever one of its inputs changes: git's HEAD, its reflog and its
/// index (a commit, checkout, reset or pull touches them) and every source file of the package
/// (an edit may make the tree differ from the commit). It rewrites its output only when the
/// output changes, so rerunning it rebuilds nothing.
@main
struct BuildInfoPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let package = context.package.directoryURL
    let script = package.appending(path: "script/build-info")
    let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
    let targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.filter { $0.kind != .test }
    let root = package.standardizedFileURL.pathComponents
    // Each target's directory, relative to the package: the folder its source files share.
    let directories = targets.compactMap { target -> String? in
      let folders = target.sourceFiles.map {
        $0.url.standardizedFileURL.deletingLastPathComponent().pathComponents
      }
      guard var shared = folders.first else { return nil }
      for folder in folders.dropFirst() {
        shared = Array(zip(shared, folder).prefix { $0 == $1 }.map(\.0))
      }
      guard shared.count > root.count, Array(shared.prefix(root.count)) == root else { return nil }
      return shared.dropFirst(root.count).joined(separator: "/")
    }
    let sources = targets.flatMap { $0.sourceFiles.map(\.url) }
    let manifest = package.appending(path: "Package.swift")
    return [
      .buildCommand(
        displayName: "Reading the commit \(context.package.displayName) is built from",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [script.path, package.path, output.path, "Package.swift", "script/build-info"]
          + directories,
        inputFiles: [script, manifest] + gitFiles(package) + sources,
        outputFiles: [output])
    ]
  }

  /// The files of the checkout's git directory that change when HEAD or the index moves.
  private func gitFiles(_ package: URL) -> [URL] {
    let dotGit = package.appending(path: ".git")
    var directory = dotGit
    // A worktree's (or submodule's) `.git` is a file: `gitdir: PATH`.
    if let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") {
      let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
      directory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appending(path: path)
    }
    return ["HEAD", "logs/HEAD", "index"].map { directory.appending(path: $0) }.filter {
      FileManager.default.fileExists(atPath: $0.path)
    }
  }
}
