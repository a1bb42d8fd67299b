import GridlockThemeFiles
import LinuxSys

/// What a key's path names, and so how `ConfigVerdict` checks it. Every key whose value
/// can be a path says which kind (`ValueType.naming`): a test tries each such key of the
/// schema with a FIFO, a device, a folder and a dangling link.
package enum NamedFileKind: String, Sendable, CaseIterable {
    /// A PNG read whole; all of a theme's images together within `ThemeImageBudget`.
    case themeImage
    /// A font file (when the value is one, not a family), mapped as the renderer maps it.
    case font
    /// An input device, or with `[touch] backend=replay` a recording read whole.
    case touchDevice
    /// An input device that plays sounds.
    case beeper
    /// A DRM card.
    case displayCard
    /// A folder gridlockd writes into, made when missing.
    case folder
    /// The state file gridlockd reads and replaces by rename.
    case stateFile
    /// The session socket gridlockd binds: nothing, or a socket an earlier run left, which
    /// it replaces; any other file there (a link too, even to a socket) it leaves alone.
    case socket
}

/// How a value type names files: its kind, and the paths in one parsed value.
package struct NamedFile<Value>: Sendable {
    package let kind: NamedFileKind
    package let paths: @Sendable (Value) -> [String]
}

/// The rules for each kind but theme images (checked together, `ThemeImageCheck`).
///
/// Files are opened the bounded way (`RegularFile`), so a FIFO, a device or a folder put
/// where a file belongs is refused at once, never waited on. Devices are not opened: a
/// node that is there must be a character device of the right driver, by its major number,
/// so `/dev/zero` or a FIFO is refused; a node that is not there (an unplugged device,
/// or a link to one, as udev's by-id links are while it is away) is not an error, since
/// gridlockd waits for it to appear.
package enum NamedFileCheck {
    /// Linux's INPUT_MAJOR: every evdev node.
    package static let inputMajor: UInt32 = 13
    /// Linux's DRM_MAJOR: every card and render node.
    package static let drmMajor: UInt32 = 226

    /// Why the file or device at `path` cannot serve as `kind` under `config`; nil if it can.
    package static func problem(_ kind: NamedFileKind, _ path: String, in config: GridlockConfig) -> String? {
        switch kind {
        case .themeImage:
            return nil
        case .font:
            // Checked where it is written (`ConfigValues.font`), by opening it as the renderer does.
            return nil
        case .touchDevice:
            guard config.touch.backend == .replay else { return deviceProblem(path, major: inputMajor, "an input device") }
            do throws(RecordingFileError) {
                try RecordingFile.check(path)
                return nil
            } catch {
                return error.reason
            }
        case .beeper:
            return deviceProblem(path, major: inputMajor, "an input device")
        case .displayCard:
            return deviceProblem(path, major: drmMajor, "a DRM card")
        case .folder:
            return existingProblem(path, "a folder", isRight: \.isDirectory)
        case .stateFile:
            return existingProblem(path, "a regular file", isRight: \.isRegularFile)
        case .socket:
            do {
                let status = try FileStatus(entryAt: path)
                return status.isSocket ? nil : "'\(path)' is \(status.kind), not a socket (gridlockd replaces only a socket)"
            } catch where error.errno == .noSuchFile {
                return nil
            } catch {
                return "'\(path)': \(error.errno.text)"
            }
        }
    }

    private static func deviceProblem(_ path: String, major: UInt32, _ what: String) -> String? {
        let status: FileStatus
        do {
            status = try FileStatus(path: path)
        } catch where error.errno == .noSuchFile {
            return nil
        } catch {
            return "'\(path)': \(error.errno.text)"
        }
        guard status.isCharacterDevice else { return "'\(path)' is \(status.kind), not \(what)" }
        guard status.deviceMajor == major else {
            return "'\(path)' is a character device of another driver (major \(status.deviceMajor)), not \(what) (major \(major))"
        }
        return nil
    }

    /// Something gridlockd makes when it is missing: whatever is there must be of its kind,
    /// and a link to nothing is refused (gridlockd could neither use it nor make it).
    private static func existingProblem(_ path: String, _ what: String, isRight: (FileStatus) -> Bool) -> String? {
        do {
            let status = try FileStatus(path: path)
            return isRight(status) ? nil : "'\(path)' is \(status.kind), not \(what)"
        } catch where error.errno == .noSuchFile {
            if let link = try? FileStatus(entryAt: path), link.isSymbolicLink {
                return "'\(path)' is a symbolic link to nothing, not \(what)"
            }
            return nil
        } catch {
            return "'\(path)': \(error.errno.text)"
        }
    }
}

extension NamedFileCheck {
    /// Every file and device the values in effect name, checked by its kind
    /// (`NamedFileCheck`) and reported at the line of its key: the schema says which keys
    /// name one, so a new path key is checked without a line here. Theme images are
    /// checked together, their pixels sharing one budget, and with the font as `look`
    /// judges them: decoded and opened by a program that draws, by their headers alone
    /// by one that does not (`LookInspecting`).
    /// `sections`: only the keys of these (a theme file's), when given.
    public static func problems(
        _ config: GridlockConfig, at locations: [String: SourceLocation], mainFile: String, sections: Set<String>? = nil,
        look: any LookInspecting
    ) -> [ConfigDiagnostic] {
        let draft = ConfigDraft(config: config)
        var problems: [ConfigDiagnostic] = []
        var images: [(label: String, path: String, at: SourceLocation)] = []
        for section in ConfigSchema.sections where sections?.contains(section.name) ?? true {
            for key in section.keys {
                guard let kind = key.namedFile else { continue }
                let written = locations["\(section.name).\(key.name)"]
                // A default names a file too (the state file's): said as such, at the main file.
                let label = "[\(section.name)] \(key.name)" + (written == nil ? " (its default)" : "")
                let at = written ?? SourceLocation(file: mainFile, line: 0)
                for path in key.namedPaths(draft) {
                    if kind == .themeImage {
                        images.append((label, path, at))
                    } else if let problem = NamedFileCheck.problem(kind, path, in: config) {
                        problems.append(ConfigDiagnostic(location: at, message: "\(label): \(problem)"))
                    }
                }
            }
        }
        if sections?.contains("theme") ?? true, let at = locations["theme.font"], let problem = look.fontProblem(config.theme.font) {
            switch config.theme.font {
            case .file(let file): problems.append(ConfigDiagnostic(location: at, message: "[theme] font: cannot open '\(file)': \(problem)"))
            case .family(let name): problems.append(ConfigDiagnostic(location: at, message: "[theme] font: family '\(name)': \(problem)"))
            }
        }
        for (index, problem) in look.imageProblems(images.map(\.path)) {
            let image = images[index]
            problems.append(ConfigDiagnostic(location: image.at, message: "\(image.label): cannot use '\(image.path)': \(problem)"))
        }
        return problems
    }
}
