import LinuxSys

/// The rule for paths inside config files: relative to the folder of the file that holds them,
/// so a drop-in shipped with its own font works wherever it is installed. Results are absolute,
/// because the daemon may change directory later.
package enum ConfigPaths {
    package static func resolve(_ value: String, relativeTo file: String, currentDirectory: String) -> String {
        if value.hasPrefix("/") { return value }
        var folder: String
        if let slash = file.lastIndex(of: "/") {
            folder = String(file[..<slash])
            if folder.isEmpty { folder = "/" }
        } else {
            folder = "."
        }
        if !folder.hasPrefix("/") {
            folder = folder == "." ? currentDirectory : join(currentDirectory, folder.hasPrefix("./") ? String(folder.dropFirst(2)) : folder)
        }
        return normalised(join(folder, value))
    }

    /// `.` and `..` removed lexically (`/etc/gridlock/conf.d/../fonts/a.ttf` ->
    /// `/etc/gridlock/fonts/a.ttf`), so logs and safety checks name the real folder.
    /// Lexical is right here: the path is only ever opened, never compared with a link's target.
    package static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    package static func dropInDirectory(of mainFile: String) -> String { mainFile + ".d" }

    /// The main file, then its drop-ins in the order they apply; with a stand-in, its file in
    /// the place of the drop-in it stands in for, whether that exists yet or not.
    package static func files(of mainFile: String, standIn: DropInStandIn? = nil) throws(SystemCallError) -> [String] {
        let directory = dropInDirectory(of: mainFile)
        var names = try dropInNames(in: directory) ?? []
        guard let standIn else { return [mainFile] + names.map { directory + "/" + $0 } }
        let name = standIn.name
        if !names.contains(name) {
            names.append(name)
            names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return [mainFile] + names.map { $0 == name ? standIn.readFrom : directory + "/" + $0 }
    }

    /// Names in `directory` ending in `.conf`, hidden files and directories left out, in byte order;
    /// nil when the directory does not exist (drop-ins are optional).
    package static func dropInNames(in directory: String) throws(SystemCallError) -> [String]? {
        let entries: [String]
        do {
            entries = try Directory.entries(directory)
        } catch where error.errno == .noSuchFile {
            return nil
        }
        let names = entries.filter { name in
            name.hasSuffix(".conf") && !name.hasPrefix(".")
                && (try? FileStatus(path: directory + "/" + name))?.isDirectory != true
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// A drop-in read from another file than its own: a new drop-in judged under a temporary
/// name, with the whole configuration, before it is renamed into place (`Enrollment.store`).
package struct DropInStandIn: Hashable, Sendable {
    /// The name the drop-in will have in the drop-in folder (`50-door.conf`).
    package var name: String
    /// Where it is read from until then.
    package var readFrom: String

    package init(name: String, readFrom: String) {
        self.name = name
        self.readFrom = readFrom
    }
}
