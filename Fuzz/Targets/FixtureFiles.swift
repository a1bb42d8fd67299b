import LinuxSys

/// Reading `Tests/Fixtures` for seeds. Seeds are a starting point, not a test: a file that
/// cannot be read is left out.
enum FixtureFiles {
    /// The files directly in `fixtures/subfolder` whose names end in `suffix`, sorted by name.
    static func seeds(_ fixtures: String, _ subfolder: String, suffix: String, prefix: String = "") -> [FuzzSeed] {
        let folder = subfolder.isEmpty ? fixtures : "\(fixtures)/\(subfolder)"
        let names = ((try? Directory.entries(folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
        return names.compactMap { name in
            guard let bytes = read("\(folder)/\(name)") else { return nil }
            return FuzzSeed(prefix + name, bytes)
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        (try? AtomicFile.read(path)) ?? nil
    }
}
